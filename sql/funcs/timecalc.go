package funcs

import (
	"strings"
	"time"

	"github.com/plrun/plrun/sql/datetime"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/types"
)

// timeCalcFunc compiles the functions of TIME values and of a datetime
// and a TIME: TIME_FORMAT, ADDTIME, SUBTIME, TIMESTAMP(d[, t]), and
// STRCMP beside them (compare strings as ORDER BY does).
func timeCalcFunc(f *expr.Call) (*expr.Expr, error) {
	switch f.Name {
	case "time_format":
		if err := f.NArgs(2, 2); err != nil {
			return nil, err
		}
		return f.Mk(expr.TVarchar, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			if expr.AnyNull(vs) {
				return types.Null, nil
			}
			d, _, ok := clockArg(c, vs[0])
			if !ok {
				return types.Null, nil
			}
			return types.StringValue(datetime.FormatClock(d, vs[1].String())), nil
		}), nil
	case "addtime", "subtime":
		if err := f.NArgs(2, 2); err != nil {
			return nil, err
		}
		sub := f.Name == "subtime"
		t := tTime
		if b := f.Args[0].Type.Base; b == types.TDatetime || b == types.TTimestamp || b == types.TDate {
			t = types.ColType{Base: types.TDatetime, Scale: 6}
		} else if !f.Args[0].Type.IsString() && b != 0 && b != types.TTime {
			t = expr.TVarchar
		}
		return f.Mk(t, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			if expr.AnyNull(vs) {
				return types.Null, nil
			}
			d, fsp, ok := datetime.ParseDuration(vs[1].String())
			if !ok {
				clockArg(c, vs[1]) // its warning
				return types.Null, nil
			}
			if sub {
				d = -d
			}
			if vs[0].K == types.KindDuration {
				// a TIME column's value: its own digits and the text's
				return timeText(time.Duration(vs[0].I)*time.Microsecond+d, max(int(vs[0].P), fsp)), nil
			}
			if fsp > 0 {
				fsp = 6 // text arguments: MariaDB prints all six digits
			}
			if isDatetimeText(vs[0]) {
				m, ok := timeArg(c, vs[0])
				if !ok {
					return types.Null, nil
				}
				if m.fsp > 0 && vs[0].K != types.KindTime {
					m.fsp = 6
				}
				r := types.TimeValueFsp(m.t.Add(d), max(m.fsp, fsp))
				if t.Base == types.TDatetime {
					return r, nil
				}
				return types.StringValue(r.String()), nil
			}
			base, bfsp, ok := clockArg(c, vs[0])
			if !ok {
				return types.Null, nil
			}
			if bfsp > 0 {
				bfsp = 6
			}
			return timeText(base+d, max(bfsp, fsp)), nil
		}), nil
	case "timestamp":
		if err := f.NArgs(1, 2); err != nil {
			return nil, err
		}
		return f.Mk(expr.TDatetime, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			if expr.AnyNull(vs) {
				return types.Null, nil
			}
			m, ok := timeArg(c, vs[0])
			if !ok {
				return types.Null, nil
			}
			fsp := m.fsp
			if len(vs) == 2 {
				d, dfsp, ok := clockArg(c, vs[1])
				if !ok {
					return types.Null, nil
				}
				m.t = m.t.Add(d)
				fsp = max(fsp, dfsp)
			}
			return types.TimeValueFsp(m.t, fsp), nil
		}), nil
	case "strcmp":
		if err := f.NArgs(2, 2); err != nil {
			return nil, err
		}
		return f.Mk(expr.TBigInt, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			if expr.AnyNull(vs) {
				return types.Null, nil
			}
			return types.IntValue(int64(types.CompareStrings(vs[0].String(), vs[1].String()))), nil
		}), nil
	}
	return nil, nil
}

// isDatetimeText reports whether v is a date or datetime rather than a
// TIME ('2024-01-01 10:00' but not '10:00:00').
func isDatetimeText(v types.Value) bool {
	if v.K == types.KindTime {
		return true
	}
	_, ok := datetime.Parse(v.String())
	return ok && strings.ContainsAny(v.String(), "-/")
}
