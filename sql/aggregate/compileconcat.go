package aggregate

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// How GROUP_CONCAT, JSON_ARRAYAGG and JSON_OBJECTAGG compile: their
// arguments and ORDER BY keys, which no aggregate may be part of.

func (s *Set) compileJSONAgg(sc *expr.Scope, x *ast.AggregateFuncExpr, spec Spec) (*expr.Expr, error) {
	cs := &ConcatSpec{JSON: 'a', Sep: ","}
	want := 1
	if spec.Name == "json_objectagg" {
		cs.JSON, cs.Sep, want = 'o', ", ", 2
	}
	if len(x.Args) != want || expr.JSONText == nil {
		return nil, expr.WrongArgs(strings.ToUpper(spec.Name))
	}
	if err := compileConcatArgs(sc, x, x.Args, cs); err != nil {
		return nil, err
	}
	spec.Concat = cs
	spec.Type = types.ColType{Base: types.TText, JSON: true}
	return s.slot(spec), nil
}

func (s *Set) compileGroupConcat(sc *expr.Scope, x *ast.AggregateFuncExpr, spec Spec) (*expr.Expr, error) {
	// The parser appends the separator (',' unless written) as the last
	// argument.
	if len(x.Args) < 2 {
		return nil, expr.WrongArgs("GROUP_CONCAT")
	}
	sepNode, ok := x.Args[len(x.Args)-1].(ast.ValueExpr)
	if !ok {
		return nil, expr.WrongArgs("GROUP_CONCAT")
	}
	cs := &ConcatSpec{Sep: sepNode.GetString()}
	if err := compileConcatArgs(sc, x, x.Args[:len(x.Args)-1], cs); err != nil {
		return nil, err
	}
	spec.Concat = cs
	spec.Type = types.ColType{Base: types.TText}
	return s.slot(spec), nil
}

// compileConcatArgs compiles args, then the ORDER BY, into cs.
func compileConcatArgs(sc *expr.Scope, x *ast.AggregateFuncExpr, args []ast.ExprNode, cs *ConcatSpec) error {
	for _, a := range args {
		e, err := sc.CompileInAggregate(a)
		if err != nil {
			return err
		}
		cs.Args = append(cs.Args, e)
	}
	if x.Order == nil {
		return nil
	}
	for _, it := range x.Order.Items {
		// ORDER BY 2 is the function's second argument, as in MariaDB
		if pos, ok := it.Expr.(*ast.PositionExpr); ok && pos.P == nil {
			if pos.N < 1 || pos.N > len(cs.Args) {
				return sqlerr.New(sqlerr.ErBadField, "Unknown column '%d' in 'ORDER BY'", pos.N)
			}
			cs.Order = append(cs.Order, cs.Args[pos.N-1])
			cs.Desc = append(cs.Desc, it.Desc)
			continue
		}
		e, err := sc.CompileInAggregate(it.Expr)
		if err != nil {
			return err
		}
		cs.Order = append(cs.Order, e)
		cs.Desc = append(cs.Desc, it.Desc)
	}
	return nil
}
