package funcs

import (
	"strconv"
	"strings"
	"time"

	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/types"
)

// miscFunc compiles ISNULL, INET_ATON/INET_NTOA, FROM_DAYS, TO_SECONDS,
// PERIOD_ADD/PERIOD_DIFF and BIT_LENGTH.
func miscFunc(f *expr.Call) (*expr.Expr, error) {
	strict := func(n int, t types.ColType, fn func(c *expr.Ctx, vs []types.Value) types.Value) (*expr.Expr, error) {
		if err := f.NArgs(n, n); err != nil {
			return nil, err
		}
		return f.Mk(t, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			if expr.AnyNull(vs) {
				return types.Null, nil
			}
			return fn(c, vs), nil
		}), nil
	}
	switch f.Name {
	case "isnull":
		if err := f.NArgs(1, 1); err != nil {
			return nil, err
		}
		return f.Mk(expr.TBigInt, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			return expr.BoolValue(vs[0].IsNull()), nil
		}), nil
	case "inet_aton":
		return strict(1, types.ColType{Base: types.TBigInt, Unsigned: true}, func(c *expr.Ctx, vs []types.Value) types.Value {
			parts := strings.Split(vs[0].String(), ".")
			if len(parts) > 4 {
				return types.Null
			}
			var n uint64
			for i, p := range parts {
				b, err := strconv.ParseUint(p, 10, 8)
				if err != nil {
					return types.Null
				}
				if i == len(parts)-1 {
					n |= b // the last part is the lowest byte ('10.1' is 10.0.0.1)
				} else {
					n |= b << (8 * (3 - i))
				}
			}
			return types.UintValue(n)
		})
	case "inet_ntoa":
		return strict(1, expr.TVarchar, func(c *expr.Ctx, vs []types.Value) types.Value {
			n, ok := vs[0].ToInt64()
			if !ok || n < 0 || n > 1<<32-1 {
				return types.Null
			}
			return types.StringValue(strconv.Itoa(int(n>>24)) + "." + strconv.Itoa(int(n>>16&255)) + "." + strconv.Itoa(int(n>>8&255)) + "." + strconv.Itoa(int(n&255)))
		})
	case "from_days":
		// Day 366 is 0001-01-01; before it MariaDB gives the zero date,
		// which plrun's DATE cannot hold: NULL.
		return strict(1, types.ColType{Base: types.TDate}, func(c *expr.Ctx, vs []types.Value) types.Value {
			n := expr.SaturatingInt(vs[0])
			if n < 366 || n > 3652424 {
				return types.Null
			}
			return types.DateValue(time.Unix((n-719528)*86400, 0).UTC())
		})
	case "to_seconds":
		return strict(1, expr.TBigInt, func(c *expr.Ctx, vs []types.Value) types.Value {
			m, ok := timeArg(c, vs[0])
			if !ok {
				return types.Null
			}
			return types.IntValue(m.t.Unix() + 719528*86400)
		})
	case "period_add", "period_diff":
		return strict(2, expr.TBigInt, func(c *expr.Ctx, vs []types.Value) types.Value {
			a, b := expr.SaturatingInt(vs[0]), expr.SaturatingInt(vs[1])
			if f.Name == "period_add" {
				m := periodMonths(a) + b
				return types.IntValue((m/12)*100 + m%12 + 1)
			}
			return types.IntValue(periodMonths(a) - periodMonths(b))
		})
	case "bit_length":
		return strict(1, expr.TBigInt, func(c *expr.Ctx, vs []types.Value) types.Value {
			return types.IntValue(int64(len(vs[0].String())) * 8)
		})
	}
	return nil, nil
}

// periodMonths is a YYMM or YYYYMM period as months since year 0 (two
// digits are 19xx from 70, else 20xx).
func periodMonths(p int64) int64 {
	if p == 0 {
		return 0
	}
	y, m := p/100, p%100
	if y < 100 {
		y = int64(twoDigitYear(int(y)))
	}
	return y*12 + m - 1
}
