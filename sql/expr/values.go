package expr

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/types"
)

// compileValues is VALUES(col): in the assignments of INSERT ... ON
// DUPLICATE KEY UPDATE, the value the INSERT would have put in col
// (Ctx.Inserting); anywhere else NULL, as in MySQL.
func (sc *Scope) compileValues(x *ast.ValuesExpr) (*Expr, error) {
	col, err := sc.ResolveColumn(x.Column.Name)
	if err != nil {
		return nil, err
	}
	read := col.Fn
	e := *col
	e.NotNull = false
	e.Fn = func(c *Ctx) (types.Value, error) {
		if c.Inserting == nil {
			return types.Null, nil
		}
		row := c.Row
		c.Row = c.Inserting
		v, err := read(c)
		c.Row = row
		return v, err
	}
	return &e, nil
}
