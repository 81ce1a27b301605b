package expr

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// Aggregates compile into the query's aggregate set (sql/aggregate's
// Set, as Scope.Aggs), each call a slot whose value for the current group
// the executor puts in Ctx.Aggs.

// AggScope is where the aggregates of a SELECT's select list, HAVING and
// ORDER BY compile (sql/aggregate's Set).
type AggScope interface {
	CompileAggregate(sc *Scope, x *ast.AggregateFuncExpr) (*Expr, error)
}

func (sc *Scope) compileAgg(x *ast.AggregateFuncExpr) (*Expr, error) {
	if sc.Aggs == nil || sc.inAgg {
		return nil, sqlerr.New(sqlerr.ErInvalidUseOfGroup, "Invalid use of group function")
	}
	return sc.Aggs.CompileAggregate(sc, x)
}

// CompileInAggregate compiles an aggregate's argument (or its ORDER BY
// key), where another aggregate is refused (1111).
func (sc *Scope) CompileInAggregate(e ast.ExprNode) (*Expr, error) {
	sc.inAgg = true
	defer func() { sc.inAgg = false }()
	return sc.Compile(e)
}

// AggValue reads aggregate slot idx of the current group (Ctx.Aggs).
func AggValue(idx int, t types.ColType) *Expr {
	return &Expr{Fn: func(c *Ctx) (types.Value, error) { return c.Aggs[idx], nil },
		Type: t, Col: -1, HasAgg: true, param: -1}
}

// JSONText is an SQL value as JSON text, for JSON_ARRAYAGG and
// JSON_OBJECTAGG; sql/funcs sets it.
var JSONText func(v types.Value, t types.ColType) string

// IntDigits is the number of decimal digits an integer type holds.
func IntDigits(t types.ColType) int {
	switch t.Base {
	case types.TTinyInt:
		return 3
	case types.TSmallInt:
		return 5
	case types.TMediumInt:
		return 8
	case types.TInt:
		return 10
	}
	if t.Unsigned {
		return 20
	}
	return 19
}
