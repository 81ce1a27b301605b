package show

import (
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
// foreign keys, then the table-level CHECK constraints, as MariaDB
// prints them.
func constraintLines(def *storage.TableDef) []string {
	var lines []string
	for i := range def.ForeignKeys {
		lines = append(lines, "  "+def.ForeignKeys[i].SQL(def, false))
	}
	for _, ck := range def.Checks {
		if ck.Column == "" {
			lines = append(lines, "  CONSTRAINT "+quoteName(ck.Name)+" CHECK ("+ck.Expr+")")
		}
	}
	return lines
}
