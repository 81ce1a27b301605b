package alter

import (
	"regexp"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/parse"
)

// A column's REFERENCES in ALTER TABLE, as MariaDB 10.11 takes it: in ADD
// COLUMN it is the FOREIGN KEY it names (columnFrom makes it one, built,
// named and checked as ADD FOREIGN KEY's), and MariaDB's grammar has no
// place for it in MODIFY or CHANGE, so there it is its syntax error.

// columnForeignKey is the table constraint a column's REFERENCES stands for.
func columnForeignKey(cd *ast.ColumnDef, o *ast.ColumnOption) *ast.Constraint {
	return &ast.Constraint{
		Tp:    ast.ConstraintForeignKey,
		Name:  o.ConstraintName, // CONSTRAINT name REFERENCES (sql/parse's columnrefs.go)
		Keys:  []*ast.IndexPartSpecification{{Column: &ast.ColumnName{Name: cd.Name.Name}}},
		Refer: o.Refer,
	}
}

var referencesWord = regexp.MustCompile(`(?i)\breferences\b`)

// refuseRedefinedReferences is 1064 for a MODIFY or CHANGE whose column
// has a REFERENCES, before anything else is looked at (MariaDB's parser
// refuses it), near the REFERENCES as MariaDB's message shows it.
func refuseRedefinedReferences(x *ast.AlterTableStmt) error {
	seen := 0 // REFERENCES written before the one refused
	for _, sp := range x.Specs {
		switch sp.Tp {
		case ast.AlterTableModifyColumn, ast.AlterTableChangeColumn:
			for _, cd := range sp.NewColumns {
				for _, o := range cd.Options {
					if o.Tp == ast.ColumnOptionReference {
						return parse.SyntaxError(x.Text(), nearReferences(x.Text(), seen))
					}
				}
			}
		case ast.AlterTableAddColumns:
			for _, cd := range sp.NewColumns {
				for _, o := range cd.Options {
					if o.Tp == ast.ColumnOptionReference {
						seen++
					}
				}
			}
		case ast.AlterTableAddConstraint:
			if sp.Constraint != nil && sp.Constraint.Tp == ast.ConstraintForeignKey {
				seen++
			}
		}
	}
	return nil
}

// nearReferences is the statement from its REFERENCES after the first
// skip ones to its end.
func nearReferences(text string, skip int) string {
	text = strings.TrimRight(strings.TrimSpace(text), ";")
	locs := referencesWord.FindAllStringIndex(text, -1)
	if skip >= len(locs) {
		return "REFERENCES"
	}
	return strings.TrimSpace(text[locs[skip][0]:])
}
