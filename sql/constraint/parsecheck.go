package constraint

import (
	"fmt"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/parse"
)

// ParseCheck reads a stored CHECK expression back (the definition keeps
// its text, as SHOW CREATE TABLE prints it).
func ParseCheck(text string) (ast.ExprNode, error) {
	n, err := parse.ParseOne("SELECT " + text)
	if err != nil {
		return nil, err
	}
	sel, ok := n.(*ast.SelectStmt)
	if !ok || sel.Fields == nil || len(sel.Fields.Fields) != 1 {
		return nil, fmt.Errorf("constraint: CHECK text %q is not one expression", text)
	}
	return sel.Fields.Fields[0].Expr, nil
}
