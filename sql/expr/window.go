package expr

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// Window functions compile into the query's window set (sql/window's
// Set, as Scope.Windows) and read their per-row values from Ctx.Wins.

// WindowScope is where the window functions of a SELECT's select list and
// ORDER BY compile (sql/window's Set).
type WindowScope interface {
	CompileWindow(sc *Scope, x *ast.WindowFuncExpr) (*Expr, error)
}

func (sc *Scope) compileWindow(x *ast.WindowFuncExpr) (*Expr, error) {
	if sc.inAgg || sc.inWindow {
		return nil, sqlerr.New(sqlerr.ErWindowFuncInGroupFunc, "Window functions can not be used as arguments to group functions.")
	}
	if sc.Windows == nil {
		return nil, sqlerr.New(sqlerr.ErWrongPlacementOfWindowFunc, "Window function is allowed only in SELECT list and ORDER BY clause")
	}
	return sc.Windows.CompileWindow(sc, x)
}

// CompileWindowArgs compiles a window function's arguments, where another
// window function is refused (4008).
func (sc *Scope) CompileWindowArgs(args []ast.ExprNode) ([]*Expr, error) {
	sc.inWindow = true
	defer func() { sc.inWindow = false }()
	return sc.compileArgs(args)
}

// RowValue is an expression whose value the executor computes for each
// row (a window function's): never constant, naming no column.
func RowValue(t types.ColType, fn func(c *Ctx) (types.Value, error)) *Expr {
	return &Expr{Fn: fn, Type: t, Col: -1, param: -1}
}

// WrongArgs is 1582 for a call of name with the wrong argument count.
func WrongArgs(name string) error { return wrongArgs(name) }
