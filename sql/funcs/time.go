package funcs

import (
	"github.com/cockroachdb/apd/v3"
	"github.com/plrun/plrun/sql/expr"
	"strings"
	"time"

	"github.com/plrun/plrun/sql/datetime"
	"github.com/plrun/plrun/types"
)

// timeFunc compiles the date and time functions that read the clock;
// datepart.go has the parts of a date, datecalc.go and timecalc.go the
// arithmetic and the formats.
func timeFunc(f *expr.Call) (*expr.Expr, error) {
	switch f.Name {
	case "now", "current_timestamp", "sysdate", "localtime", "localtimestamp", "utc_timestamp",
		"curtime", "current_time", "utc_time":
		return clockFunc(f)
	case "curdate", "current_date", "utc_date":
		if err := f.NArgs(0, 0); err != nil {
			return nil, err
		}
		utc := f.Name == "utc_date"
		e := f.Mk(types.ColType{Base: types.TDate}, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			return types.DateValue(wallClock(c, utc, true)), nil
		})
		e.IsConst = false
		return e, nil
	case "unix_timestamp":
		if err := f.NArgs(0, 1); err != nil {
			return nil, err
		}
		// a DECIMAL when the argument has fractional seconds: a DATETIME(n),
		// or literal text with a fraction
		t := expr.TBigInt
		if len(f.Args) == 1 {
			scale := 0
			if a := f.Args[0]; a.Type.Base == types.TDatetime || a.Type.Base == types.TTimestamp {
				scale = a.Type.Scale
			} else if v, ok := a.Literal(); ok {
				if p, ok := datetime.Parse(v.String()); ok {
					scale = p.Fsp
				}
			}
			if scale > 0 {
				t = types.ColType{Base: types.TDecimal, Length: 11 + scale, Scale: scale}
			}
		}
		return f.Mk(t, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			if len(vs) == 0 {
				return types.IntValue(wallClock(c, false, true).Unix()), nil
			}
			m, ok := timeArg(c, vs[0])
			if !ok {
				return types.Null, nil
			}
			// the wall clock is in the session's time zone; one before
			// the epoch is NULL, as MariaDB gives it
			m.t = time.Date(m.t.Year(), m.t.Month(), m.t.Day(), m.t.Hour(), m.t.Minute(), m.t.Second(), m.t.Nanosecond(), sessionZone(c))
			if m.t.Unix() < 0 {
				return types.Null, nil
			}
			if m.fsp > 0 {
				// a fraction of a second: a DECIMAL with its digits
				units := m.t.UnixMicro()
				for i := m.fsp; i < 6; i++ {
					units /= 10
				}
				return types.DecimalValue(apd.New(units, -int32(m.fsp))), nil
			}
			return types.IntValue(m.t.Unix()), nil
		}), nil
	case "from_unixtime":
		if err := f.NArgs(1, 2); err != nil {
			return nil, err
		}
		t := expr.TDatetime
		if len(f.Args) == 2 {
			t = expr.TVarchar
		}
		return f.Mk(t, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			if expr.AnyNull(vs) {
				return types.Null, nil
			}
			secs := vs[0].ToFloat()
			if secs < 0 || secs > 32536771199 {
				return types.Null, nil
			}
			us := int64(secs*1e6 + 0.5)
			tm := time.UnixMicro(us).In(sessionZone(c))
			if len(vs) == 2 {
				return types.StringValue(datetime.Format(tm, vs[1].String())), nil
			}
			fsp := 0 // the argument's decimals, at most 6
			if _, frac, ok := strings.Cut(vs[0].String(), "."); ok && vs[0].K != types.KindFloat {
				fsp = min(len(frac), 6)
			}
			return types.TimeValueFsp(tm, fsp), nil
		}), nil
	}
	return datePartFunc(f)
}

// wallClock is the statement's start (NOW() is one time for all its
// rows, as in MySQL) in the session's time zone, or in UTC; SYSDATE() reads
// the clock itself (statementTime false).
func wallClock(c *expr.Ctx, utc, statementTime bool) time.Time {
	t := time.Now()
	if statementTime && c != nil && c.Env != nil && !c.Env.StmtStart.IsZero() {
		t = c.Env.StmtStart
	}
	if utc {
		return t.UTC()
	}
	return t.In(sessionZone(c))
}

// sessionZone is the time_zone of the session c runs in (the system's
// outside one).
func sessionZone(c *expr.Ctx) *time.Location {
	if c == nil || c.Env == nil {
		return time.Local
	}
	return c.Env.Location()
}

// clockFunc is NOW(fsp) and its synonyms, and CURTIME(fsp): fsp (0-6)
// fractional digits, more is error 1426.
func clockFunc(f *expr.Call) (*expr.Expr, error) {
	if err := f.NArgs(0, 1); err != nil {
		return nil, err
	}
	fsp, err := constFsp(f)
	if err != nil {
		return nil, err
	}
	utc := f.Name == "utc_timestamp" || f.Name == "utc_time"
	sysdate := f.Name == "sysdate"
	trunc := time.Duration(1)
	for i := fsp; i < 9; i++ {
		trunc *= 10
	}
	var e *expr.Expr
	switch f.Name {
	case "curtime", "current_time", "utc_time":
		e = f.Mk(types.ColType{Base: types.TTime, Scale: fsp}, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			t := wallClock(c, utc, true).Truncate(trunc)
			return timeText(t.Sub(time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, t.Location())), fsp), nil
		})
	default:
		e = f.Mk(types.ColType{Base: types.TDatetime, Scale: fsp}, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			return types.TimeValueFsp(wallClock(c, utc, !sysdate).Truncate(trunc), fsp), nil
		})
	}
	e.IsConst = false
	return e, nil
}
