package aggregate

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// Set collects the aggregates of a grouped query, each a slot of
// Ctx.Aggs; it is the query's expr.AggScope while it compiles.
type Set struct {
	Specs []Spec
}

// Spec is one aggregate function found while compiling a grouped query.
type Spec struct {
	Name     string     // count, sum, avg, min, max
	Arg      *expr.Expr // nil for COUNT(*)
	Distinct bool
	Type     types.ColType
	// GROUP_CONCAT and the JSON aggregates: their arguments, run
	// together per row, their ORDER BY and SEPARATOR.
	Concat *ConcatSpec
}

// ConcatSpec is what GROUP_CONCAT([DISTINCT] a, b ... [ORDER BY k [DESC],
// ...] [SEPARATOR s]) runs per group.
type ConcatSpec struct {
	Args  []*expr.Expr
	Order []*expr.Expr
	Desc  []bool
	Sep   string
	// JSON is 'a' for JSON_ARRAYAGG(v), 'o' for JSON_OBJECTAGG(k, v):
	// the rows are JSON text, in [] or {} (MariaDB prints them without
	// the spaces of its other JSON results).
	JSON byte
}

// CompileAggregate registers an aggregate and returns a reference to its
// slot (expr.AggScope).
func (s *Set) CompileAggregate(sc *expr.Scope, x *ast.AggregateFuncExpr) (*expr.Expr, error) {
	name := strings.ToLower(x.F)
	spec := Spec{Name: name, Distinct: x.Distinct}
	switch name {
	case "group_concat":
		return s.compileGroupConcat(sc, x, spec)
	case "json_arrayagg", "json_objectagg":
		return s.compileJSONAgg(sc, x, spec)
	}
	switch name {
	case "count", "sum", "avg", "min", "max":
	case "bit_and", "bit_or", "bit_xor": // the parser refuses DISTINCT in them (1064)
	default:
		return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support %s()", strings.ToUpper(name))
	}
	star := false
	if len(x.Args) == 1 {
		if v, ok := x.Args[0].(ast.ValueExpr); ok && name == "count" && v.GetValue() != nil {
			star = true
		}
	}
	if len(x.Args) != 1 {
		return nil, expr.WrongArgs(strings.ToUpper(name))
	}
	if !star {
		a, err := sc.CompileInAggregate(x.Args[0])
		if err != nil {
			return nil, err
		}
		spec.Arg = a
	}
	spec.Type = Type(name, spec.Arg)
	return s.slot(spec), nil
}

// slot registers spec and returns the reference to its result.
func (s *Set) slot(spec Spec) *expr.Expr {
	s.Specs = append(s.Specs, spec)
	e := expr.AggValue(len(s.Specs)-1, spec.Type)
	// the rest are NULL over no rows; the bit ones give their identity
	e.NotNull = spec.Name == "count" || IsBitAgg(spec.Name)
	return e
}

// Type is the result type of aggregate name over arg (nil: COUNT(*)).
func Type(name string, arg *expr.Expr) types.ColType {
	switch name {
	case "count":
		return types.ColType{Base: types.TBigInt, Length: 21}
	case "bit_and", "bit_or", "bit_xor":
		return expr.TBitResult
	case "sum", "avg":
		if arg.Type.Base == types.TDouble || arg.Type.Base == types.TFloat || arg.Type.IsString() {
			return types.ColType{Base: types.TDouble} // a string sums as a DOUBLE, as in MariaDB
		}
		return sumAvgType(name, arg)
	}
	return arg.Type
}

// sumAvgType is MariaDB's DECIMAL of SUM and AVG over an exact argument
// (what CREATE TABLE ... SELECT gives the column): SUM widens the
// precision by 22 digits, AVG by 4 with div_precision_increment more
// scale, both capped at DECIMAL's 65 digits and 38 of scale.
func sumAvgType(name string, e *expr.Expr) types.ColType {
	arg := e.Type
	prec, scale := arg.Length, arg.Scale
	if arg.IsInteger() {
		prec, scale = expr.Precision(e), 0 // SUM(1) counts the literal's one digit
	} else if arg.Base != types.TDecimal || prec <= 0 {
		prec = 65
	}
	if name == "sum" {
		prec += 22
	} else {
		prec += types.DivPrecisionIncrement
		scale += types.DivPrecisionIncrement
	}
	return types.ColType{Base: types.TDecimal, Length: min(prec, 65), Scale: min(scale, 38)}
}
