package parse

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// MariaDB lets a column's REFERENCES be named: `pid INT CONSTRAINT fk
// REFERENCES p (id)` is the foreign key fk (and its index fk). The TiDB
// parser has no place for CONSTRAINT there, so scanColumnFKNames blanks
// the words out before the parse and nameColumnFKs gives the names to the
// REFERENCES options after it.

// scanColumnFKNames returns s with each CONSTRAINT [name] written before
// a column's REFERENCES blanked out, and, for every column REFERENCES of
// s in order, the name it was given ("" for none); names is nil when s
// has no such CONSTRAINT.
func scanColumnFKNames(s string) (string, []string) {
	head := strings.ToLower(s[:min(len(s), 16)])
	if !strings.HasPrefix(head, "create") && !strings.HasPrefix(head, "alter") {
		return s, nil
	}
	lower := strings.ToLower(s)
	if !strings.Contains(lower, "constraint") || !strings.Contains(lower, "references") {
		return s, nil
	}
	toks, ok := sqlTokens(s)
	if !ok {
		return s, nil
	}
	var names []string
	var blank [][2]int
	for i, t := range toks {
		if !t.isWord("references") || tableLevel(toks, i) {
			continue
		}
		name := ""
		switch {
		case i >= 2 && toks[i-2].isWord("constraint") && !toks[i-1].isString():
			name = strings.Trim(toks[i-1].text, "`")
			blank = append(blank, [2]int{toks[i-2].start, toks[i-1].end})
		case i >= 1 && toks[i-1].isWord("constraint"):
			blank = append(blank, [2]int{toks[i-1].start, toks[i-1].end})
		}
		names = append(names, name)
	}
	if len(blank) == 0 {
		return s, nil
	}
	b := []byte(s)
	for _, r := range blank {
		for j := r[0]; j < r[1]; j++ {
			b[j] = ' '
		}
	}
	return string(b), names
}

// tableLevel reports whether the REFERENCES at toks[i] ends a FOREIGN KEY
// table constraint: a FOREIGN comes before it in the same element (back to
// the comma, at its depth, that starts the element).
func tableLevel(toks []sqlToken, i int) bool {
	d := toks[i].depth
	for j := i - 1; j >= 0; j-- {
		t := toks[j]
		if t.depth < d || (t.depth == d && t.text == ",") {
			return false
		}
		if t.depth == d && t.isWord("foreign") {
			return true
		}
	}
	return false
}

// nameColumnFKs gives names, in order, to n's column REFERENCES options.
func nameColumnFKs(n ast.StmtNode, names []string) {
	var cols []*ast.ColumnDef
	switch x := n.(type) {
	case *ast.CreateTableStmt:
		cols = x.Cols
	case *ast.AlterTableStmt:
		for _, sp := range x.Specs {
			cols = append(cols, sp.NewColumns...)
		}
	}
	k := 0
	for _, cd := range cols {
		for _, o := range cd.Options {
			if o.Tp == ast.ColumnOptionReference {
				if k < len(names) {
					o.ConstraintName = names[k]
				}
				k++
			}
		}
	}
}
