package show

import (
	"sort"
	"strings"

	"github.com/plrun/plrun/storage"
)

// columnCheck is what SHOW CREATE TABLE prints after a column with a
// column-level CHECK, as MariaDB does: " CHECK (expr)".
func columnCheck(def *storage.TableDef, col string) string {
	var b strings.Builder
	for _, ck := range def.Checks {
		if ck.Column != "" && strings.EqualFold(ck.Column, col) {
			b.WriteString(" CHECK (" + ck.Expr + ")")
		}
	}
	return b.String()
}

// constraintLines are SHOW CREATE TABLE's lines after the keys: the
// foreign keys in the order of their names (InnoDB keeps them in a set
// ordered by name, byte by byte), then the table-level CHECK constraints,
// as MariaDB prints them.
func constraintLines(def *storage.TableDef) []string {
	var lines []string
	fks := make([]int, len(def.ForeignKeys))
	for i := range fks {
		fks[i] = i
	}
	sort.SliceStable(fks, func(a, b int) bool { return def.ForeignKeys[fks[a]].Name < def.ForeignKeys[fks[b]].Name })
	for _, i := range fks {
		lines = append(lines, "  "+def.ForeignKeys[i].SQL(def, false))
	}
	for _, ck := range def.Checks {
		if ck.Column == "" {
			lines = append(lines, "  CONSTRAINT "+quoteName(ck.Name)+" CHECK ("+ck.Expr+")")
		}
	}
	return lines
}
