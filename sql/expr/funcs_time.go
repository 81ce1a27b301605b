package expr

import (
	"strings"
	"time"

	"github.com/plrun/plrun/sql/datetime"
	"github.com/plrun/plrun/types"
)

// timeFunc compiles the date and time functions that read the clock or
// one date; funcs_datecalc.go has the arithmetic and the formats.
func timeFunc(f *call) (*Expr, error) {
	switch f.name {
	case "now", "current_timestamp", "sysdate", "localtime", "localtimestamp", "utc_timestamp",
		"curtime", "current_time", "utc_time":
		return clockFunc(f)
	case "curdate", "current_date", "utc_date":
		if err := f.nargs(0, 0); err != nil {
			return nil, err
		}
		utc := f.name == "utc_date"
		e := f.mk(types.ColType{Base: types.TDate}, func(c *Ctx, vs []types.Value) (types.Value, error) {
			return types.DateValue(wallClock(utc)), nil
		})
		e.IsConst = false
		return e, nil
	case "unix_timestamp":
		if err := f.nargs(0, 1); err != nil {
			return nil, err
		}
		return f.mk(TBigInt, func(c *Ctx, vs []types.Value) (types.Value, error) {
			if len(vs) == 0 {
				return types.IntValue(time.Now().Unix()), nil
			}
			m, ok := c.timeArg(vs[0])
			if !ok {
				return types.Null, nil
			}
			// the session time zone is the system's: a wall clock before
			// the epoch is NULL, as MariaDB gives it
			if m.t.Unix() < 0 {
				return types.Null, nil
			}
			return types.IntValue(m.t.Unix()), nil
		}), nil
	case "from_unixtime":
		if err := f.nargs(1, 2); err != nil {
			return nil, err
		}
		t := tDatetime
		if len(f.args) == 2 {
			t = TVarchar
		}
		return f.mk(t, func(c *Ctx, vs []types.Value) (types.Value, error) {
			if anyNull(vs) {
				return types.Null, nil
			}
			secs := vs[0].ToFloat()
			if secs < 0 || secs > 32536771199 {
				return types.Null, nil
			}
			us := int64(secs*1e6 + 0.5)
			tm := time.UnixMicro(us).Local()
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

// wallClock is now on the session's clock (the system zone) or in UTC.
func wallClock(utc bool) time.Time {
	if utc {
		return time.Now().UTC()
	}
	return time.Now()
}

// clockFunc is NOW(fsp) and its synonyms, and CURTIME(fsp): fsp (0-6)
// fractional digits, more is error 1426.
func clockFunc(f *call) (*Expr, error) {
	if err := f.nargs(0, 1); err != nil {
		return nil, err
	}
	fsp, err := f.constFsp()
	if err != nil {
		return nil, err
	}
	utc := f.name == "utc_timestamp" || f.name == "utc_time"
	trunc := time.Duration(1)
	for i := fsp; i < 9; i++ {
		trunc *= 10
	}
	var e *Expr
	switch f.name {
	case "curtime", "current_time", "utc_time":
		e = f.mk(tTime, func(c *Ctx, vs []types.Value) (types.Value, error) {
			t := wallClock(utc).Truncate(trunc)
			return timeText(t.Sub(time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, t.Location())), fsp), nil
		})
	default:
		e = f.mk(types.ColType{Base: types.TDatetime, Scale: fsp}, func(c *Ctx, vs []types.Value) (types.Value, error) {
			return types.TimeValueFsp(wallClock(utc).Truncate(trunc), fsp), nil
		})
	}
	e.IsConst = false
	return e, nil
}
