package funcs

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/plrun/plrun/sql/expr"

	"github.com/cockroachdb/apd/v3"
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// mathFunc compiles the numeric functions.
func mathFunc(f *expr.Call) (*expr.Expr, error) {
	x, name, args, nargs, mk := f.X, f.Name, f.Args, f.NArgs, f.Mk
	switch name {
	case "rand":
		e := mk(tDouble, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			return types.FloatValue(rand.Float64()), nil
		})
		e.IsConst = false
		return e, nil
	case "abs":
		if err := nargs(1, 1); err != nil {
			return nil, err
		}
		return mk(args[0].Type, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			v := vs[0]
			if v.IsNull() {
				return v, nil
			}
			if v.K == types.KindString {
				v = types.AsNumber(v) // a string's number, an ENUM's index, 0x41's 65
			}
			if types.Compare(v, types.IntValue(0)) < 0 {
				r, err := types.Negate(v)
				if re, ok := err.(*types.RangeError); ok {
					return r, sqlerr.New(sqlerr.ErDataOutOfRange, "%s value is out of range in '%s'", re.What, expr.ExprText(x))
				}
				return r, err
			}
			return v, nil
		}), nil
	case "round", "truncate", "floor", "ceil", "ceiling":
		if err := nargs(1, 2); err != nil {
			return nil, err
		}
		t := args[0].Type
		if name == "floor" || name == "ceil" || name == "ceiling" {
			if t.Base == types.TDecimal {
				t = expr.TBigInt
			}
		} else if t.Base == types.TDecimal && len(x.Args) == 2 {
			if d, ok := x.Args[1].(ast.ValueExpr); ok {
				if s, err := strconv.Atoi(strings.TrimSpace(expr.ExprText(d))); err == nil && s >= 0 {
					t.Scale = s
				}
			}
		} else if t.Base == types.TDecimal {
			t.Scale = 0
		}
		return mk(t, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			if expr.AnyNull(vs) {
				return types.Null, nil
			}
			places := int64(0)
			if len(vs) == 2 {
				places = expr.SaturatingInt(vs[1])
			}
			return roundValue(name, vs[0], places)
		}), nil
	case "mod":
		if err := nargs(2, 2); err != nil {
			return nil, err
		}
		e := mk(expr.ArithResult(types.OpMod, args[0], args[1]), func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			v, err := types.Arith(types.OpMod, vs[0], vs[1])
			if err == nil && v.IsNull() && !vs[0].IsNull() && !vs[1].IsNull() {
				return v, c.DivisionByZero()
			}
			return v, err
		})
		e.NotNull = false // MOD(x, 0) is NULL
		return e, nil
	}
	return nil, nil
}

func roundValue(name string, v types.Value, places int64) (types.Value, error) {
	if places > 30 {
		places = 30
	}
	if places < -30 {
		places = -30
	}
	switch v.K {
	case types.KindInt, types.KindUint:
		if places >= 0 || name == "floor" || name == "ceil" || name == "ceiling" {
			return v, nil
		}
	case types.KindFloat:
		p := math.Pow10(int(places))
		switch name {
		case "floor":
			return types.FloatValue(math.Floor(v.F)), nil
		case "ceil", "ceiling":
			return types.FloatValue(math.Ceil(v.F)), nil
		case "truncate":
			return types.FloatValue(math.Trunc(v.F*p) / p), nil
		}
		return types.FloatValue(math.RoundToEven(v.F*p) / p), nil // MariaDB's rint(): ROUND(2.5e0) is 2
	}
	d, ok := v.ToDecimal()
	if !ok {
		return types.Null, nil
	}
	ctx := *types.DecimalContext
	switch name {
	case "floor":
		ctx.Rounding = apd.RoundFloor
		places = 0
	case "ceil", "ceiling":
		ctx.Rounding = apd.RoundCeiling
		places = 0
	case "truncate":
		ctx.Rounding = apd.RoundDown
	}
	r := new(apd.Decimal)
	if _, err := ctx.Quantize(r, d, -int32(places)); err != nil {
		// Past DECIMAL's precision ('1e400'): the value is a DOUBLE, as
		// MariaDB computes it, not an internal error.
		return roundValue(name, types.FloatValue(v.ToFloat()), places)
	}
	if places < 0 {
		_, _ = ctx.Quantize(r, r, 0)
	}
	if name == "floor" || name == "ceil" || name == "ceiling" {
		if i, err := r.Int64(); err == nil {
			return types.IntValue(i), nil
		}
	}
	return types.DecimalValue(r), nil
}
