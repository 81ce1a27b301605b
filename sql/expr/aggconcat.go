package expr

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// ConcatSpec is what GROUP_CONCAT([DISTINCT] a, b ... [ORDER BY k [DESC],
// ...] [SEPARATOR s]) runs per group.
type ConcatSpec struct {
	Args  []*Expr
	Order []*Expr
	Desc  []bool
	Sep   string
	// JSON is 'a' for JSON_ARRAYAGG(v), 'o' for JSON_OBJECTAGG(k, v):
	// the rows are JSON text, in [] or {} (MariaDB prints them without
	// the spaces of its other JSON results).
	JSON byte
}

// JSONText is an SQL value as JSON text, for JSON_ARRAYAGG and
// JSON_OBJECTAGG; sql/funcs sets it.
var JSONText func(v types.Value, t types.ColType) string

func (sc *Scope) compileJSONAgg(x *ast.AggregateFuncExpr, spec AggSpec) (*Expr, error) {
	cs := &ConcatSpec{JSON: 'a', Sep: ","}
	want := 1
	if spec.Name == "json_objectagg" {
		cs.JSON, cs.Sep, want = 'o', ", ", 2
	}
	if len(x.Args) != want || JSONText == nil {
		return nil, wrongArgs(strings.ToUpper(spec.Name))
	}
	sc.inAgg = true
	defer func() { sc.inAgg = false }()
	for _, a := range x.Args {
		e, err := sc.Compile(a)
		if err != nil {
			return nil, err
		}
		cs.Args = append(cs.Args, e)
	}
	if err := sc.compileConcatOrder(x, cs); err != nil {
		return nil, err
	}
	spec.Concat = cs
	spec.Type = types.ColType{Base: types.TText, JSON: true}
	sc.inAgg = false
	return sc.aggSlot(spec), nil
}

func (sc *Scope) compileConcatOrder(x *ast.AggregateFuncExpr, cs *ConcatSpec) error {
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
		e, err := sc.Compile(it.Expr)
		if err != nil {
			return err
		}
		cs.Order = append(cs.Order, e)
		cs.Desc = append(cs.Desc, it.Desc)
	}
	return nil
}

func (sc *Scope) compileGroupConcat(x *ast.AggregateFuncExpr, spec AggSpec) (*Expr, error) {
	// The parser appends the separator (',' unless written) as the last
	// argument.
	if len(x.Args) < 2 {
		return nil, wrongArgs("GROUP_CONCAT")
	}
	sepNode, ok := x.Args[len(x.Args)-1].(ast.ValueExpr)
	if !ok {
		return nil, wrongArgs("GROUP_CONCAT")
	}
	cs := &ConcatSpec{Sep: sepNode.GetString()}
	sc.inAgg = true
	defer func() { sc.inAgg = false }()
	for _, a := range x.Args[:len(x.Args)-1] {
		e, err := sc.Compile(a)
		if err != nil {
			return nil, err
		}
		cs.Args = append(cs.Args, e)
	}
	if err := sc.compileConcatOrder(x, cs); err != nil {
		return nil, err
	}
	spec.Concat = cs
	spec.Type = types.ColType{Base: types.TText}
	sc.inAgg = false
	return sc.aggSlot(spec), nil
}
