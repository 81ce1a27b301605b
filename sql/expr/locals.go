package expr

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/types"
)

// LocalResolver names the local variables (and parameters) of a stored
// program in scope while one of its expressions compiles: a name maps to a
// slot of Ctx.Locals and the variable's declared type. sql/psm provides
// it; a local shadows a column of the same name, as in MySQL.
type LocalResolver interface {
	Local(name string) (slot int, t types.ColType, ok bool)
}

// compileLocal is a bare (unqualified) name that is a local variable.
func (sc *Scope) compileLocal(x *ast.ColumnNameExpr) (*Expr, bool) {
	if sc.Locals == nil || x.Name.Schema.L != "" {
		return nil, false
	}
	name := x.Name.Name.L
	if tb := x.Name.Table.L; tb != "" {
		// A trigger's NEW.col and OLD.col are its locals "new.col" and
		// "old.col" (sql/psm); no other program declares a dotted name.
		if tb != "new" && tb != "old" {
			return nil, false
		}
		name = tb + "." + name
	}
	slot, t, ok := sc.Locals.Local(name)
	if !ok {
		return nil, false
	}
	// Not IsConst: a loop reassigns it between evaluations of the same
	// compiled expression, so nothing may fold it.
	return &Expr{Fn: func(c *Ctx) (types.Value, error) { return c.Locals[slot], nil }, Type: t, Col: -1, param: -1}, true
}
