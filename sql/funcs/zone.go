package funcs

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// zoneFunc compiles CONVERT_TZ, over the zones time_zone accepts (SYSTEM
// and offsets: a named zone is NULL, as in a MariaDB without time zone
// tables), and MAKETIME.
func zoneFunc(f *expr.Call) (*expr.Expr, error) {
	switch f.Name {
	case "convert_tz":
		if err := f.NArgs(3, 3); err != nil {
			return nil, err
		}
		t := types.ColType{Base: types.TDatetime, Scale: 6}
		if a := f.Args[0].Type; a.Base == types.TDatetime || a.Base == types.TTimestamp {
			t.Scale = a.Scale
		} else if a.Base == types.TDate {
			t.Scale = 0
		}
		return f.Mk(t, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			if expr.AnyNull(vs) {
				return types.Null, nil
			}
			m, ok := timeArg(c, vs[0])
			if !ok {
				return types.Null, nil
			}
			from, err1 := sysvar.ParseTimeZone(vs[1].String())
			to, err2 := sysvar.ParseTimeZone(vs[2].String())
			if err1 != nil || err2 != nil {
				return types.Null, nil
			}
			v := types.TimeValueFsp(m.t, m.fsp)
			if !types.TimestampFits(v, from) {
				return v, nil // outside TIMESTAMP's range: MariaDB leaves it
			}
			return types.ShiftZone(v, from, to), nil
		}), nil
	case "maketime":
		if err := f.NArgs(3, 3); err != nil {
			return nil, err
		}
		return f.Mk(tTime, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			if expr.AnyNull(vs) {
				return types.Null, nil
			}
			return makeTime(c, vs[0], vs[1], vs[2]), nil
		}), nil
	}
	return nil, nil
}

// makeTime is MAKETIME(h, m, s): NULL for minutes or seconds outside
// 0-59, the nearest end of TIME's range past it (warning 1292), the
// seconds' fractional digits kept (six at most).
func makeTime(c *expr.Ctx, hv, mv, sv types.Value) types.Value {
	h, m := expr.SaturatingInt(hv), expr.SaturatingInt(mv)
	sec := sv.ToFloat()
	if m < 0 || m > 59 || sec < 0 || sec >= 60 {
		return types.Null
	}
	fsp := 0
	switch sv.K {
	case types.KindDecimal:
		fsp = min(max(-int(sv.D.Exponent), 0), 6)
	case types.KindFloat, types.KindString:
		if sec != math.Trunc(sec) {
			fsp = 6
		}
	}
	micros := secondsMicros(sv)
	micros -= micros % int64(math.Pow10(6-fsp))
	abs := h
	if abs < 0 {
		abs = -abs
	}
	d := time.Duration(abs)*time.Hour + time.Duration(m)*time.Minute + time.Duration(micros)*time.Microsecond
	if abs > 838 || d > maxTimeFrac {
		text := fmt.Sprintf("%02d:%02d:%02d", abs, m, int64(sec)) // MariaDB names no fraction
		if h < 0 {
			text = "-" + text
		}
		c.Warn(sqlerr.Note{Level: "Warning", Code: sqlerr.ErTruncatedWrongValue, Message: "Truncated incorrect time value: '" + text + "'"})
		// the largest TIME of the seconds' digits: 838:59:59.9 for one
		d = 838*time.Hour + 59*time.Minute + 59*time.Second + time.Duration(1_000_000-int64(math.Pow10(6-fsp)))*time.Microsecond
	}
	if h < 0 {
		d = -d
	}
	// a TIME value, not FormatDuration's text: that cuts 838:59:59.9
	return types.DurationValue(int64(d/time.Microsecond), fsp)
}

// maxTimeFrac is TIME's largest value with a fraction.
const maxTimeFrac = 838*time.Hour + 59*time.Minute + 59*time.Second + 999999*time.Microsecond

// secondsMicros is a seconds argument in microseconds, digits past the
// sixth cut (a DECIMAL's exactly, from its digits).
func secondsMicros(v types.Value) int64 {
	d, ok := v.ToDecimal()
	if !ok {
		return int64(v.ToFloat() * 1e6)
	}
	whole, frac, _ := strings.Cut(strings.TrimPrefix(d.Text('f'), "-"), ".")
	w, _ := strconv.ParseInt(whole, 10, 64)
	us, _ := strconv.ParseInt((frac + "000000")[:6], 10, 64)
	return w*1_000_000 + us
}
