package expr

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// compileAgg registers an aggregate and returns a reference to its slot.
func (sc *Scope) compileAgg(x *ast.AggregateFuncExpr) (*Expr, error) {
	if sc.Aggs == nil || sc.inAgg {
		return nil, sqlerr.New(sqlerr.ErInvalidUseOfGroup, "Invalid use of group function")
	}
	name := strings.ToLower(x.F)
	spec := AggSpec{Name: name, Distinct: x.Distinct}
	switch name {
	case "group_concat":
		return sc.compileGroupConcat(x, spec)
	case "json_arrayagg", "json_objectagg":
		return sc.compileJSONAgg(x, spec)
	}
	switch name {
	case "count", "sum", "avg", "min", "max":
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
		return nil, wrongArgs(strings.ToUpper(name))
	}
	if !star {
		sc.inAgg = true
		a, err := sc.Compile(x.Args[0])
		sc.inAgg = false
		if err != nil {
			return nil, err
		}
		spec.Arg = a
	}
	spec.Type = aggType(name, spec.Arg)
	return sc.aggSlot(spec), nil
}

// aggSlot registers spec and returns the reference to its result.
func (sc *Scope) aggSlot(spec AggSpec) *Expr {
	idx := len(*sc.Aggs)
	*sc.Aggs = append(*sc.Aggs, spec)
	return &Expr{Fn: func(c *Ctx) (types.Value, error) { return c.Aggs[idx], nil },
		Type: spec.Type, Col: -1, HasAgg: true, param: -1, NotNull: spec.Name == "count"}
}

// aggType is the result type of an aggregate over arg (nil: COUNT(*)).
func aggType(name string, arg *Expr) types.ColType {
	switch name {
	case "count":
		return types.ColType{Base: types.TBigInt, Length: 21}
	case "sum", "avg":
		if arg.Type.Base == types.TDouble || arg.Type.Base == types.TFloat {
			return tDouble
		}
		if arg.Type.IsString() {
			return tDouble
		}
		return sumAvgType(name, arg)
	}
	return arg.Type
}

// sumAvgType is MariaDB's DECIMAL of SUM and AVG over an exact argument
// (what CREATE TABLE ... SELECT gives the column): SUM widens the
// precision by 22 digits, AVG by 4 with div_precision_increment more
// scale, both capped at DECIMAL's 65 digits and 38 of scale.
func sumAvgType(name string, e *Expr) types.ColType {
	arg := e.Type
	prec, scale := arg.Length, arg.Scale
	if arg.IsInteger() {
		prec, scale = precision(e), 0
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
