package funcs

import (
	"github.com/plrun/plrun/sql/expr"
	"strings"
	"time"

	"github.com/plrun/plrun/sql/datetime"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// moment is a date or datetime argument as the date functions read it.
type moment struct {
	t      time.Time
	isDate bool
	fsp    int
}

// timeArg reads v as a date or datetime; text that is neither is NULL
// with warning 1292, as MariaDB gives it.
func timeArg(c *expr.Ctx, v types.Value) (moment, bool) {
	switch v.K {
	case types.KindNull:
		return moment{}, false
	case types.KindTime:
		if v.P == types.PDate {
			return moment{t: v.Time(), isDate: true}, true
		}
		return moment{t: v.Time(), fsp: int(v.P)}, true
	}
	s := v.String()
	if p, ok := datetime.Parse(s); ok {
		return moment{t: p.T, isDate: p.IsDate, fsp: p.Fsp}, true
	}
	badTime(c, "datetime", s)
	return moment{}, false
}

// clockArg reads v as a time of day for HOUR/MINUTE/SECOND/TIME(): a
// datetime's clock, or TIME text ('10:05:03', '-1 2:00').
func clockArg(c *expr.Ctx, v types.Value) (time.Duration, int, bool) {
	if v.IsNull() {
		return 0, 0, false
	}
	if v.K == types.KindTime {
		t := v.Time()
		return t.Sub(time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)), int(v.P % types.PDate), true
	}
	s := v.String()
	if p, ok := datetime.Parse(s); ok && !p.IsDate && strings.ContainsAny(s, "-/") {
		t := p.T
		return t.Sub(time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)), p.Fsp, true
	}
	if d, fsp, ok := datetime.ParseDuration(s); ok {
		return d, fsp, true
	}
	badTime(c, "time", s)
	return 0, 0, false
}

func badTime(c *expr.Ctx, what, s string) {
	c.Warn(sqlerr.Note{Level: "Warning", Code: sqlerr.ErTruncatedWrongValue, Message: "Incorrect " + what + " value: '" + s + "'"})
}

// value is m as a DATE or DATETIME value.
func (m moment) value() types.Value {
	if m.isDate {
		return types.DateValue(m.t)
	}
	return types.TimeValueFsp(m.t, m.fsp)
}

// momentType is the result type of a function returning a moment made
// from an argument of type arg: a string argument gives a string.
func momentType(arg types.ColType, isDate bool, fsp int) types.ColType {
	switch {
	case arg.Base == types.TDate && isDate:
		return types.ColType{Base: types.TDate}
	case arg.Base == types.TDate || arg.Base == types.TDatetime || arg.Base == types.TTimestamp:
		return types.ColType{Base: types.TDatetime, Scale: max(fsp, arg.Scale)}
	}
	return expr.TVarchar
}

// timeText is a TIME value as MySQL prints it.
func timeText(d time.Duration, fsp int) types.Value {
	return types.StringValue(datetime.FormatDuration(d, fsp))
}

var tTime = types.ColType{Base: types.TTime}

// timeOf is the type of a TIME computed from args: as many fractional
// digits as the DATETIME(n) among them has most.
func timeOf(args ...*expr.Expr) types.ColType {
	t := tTime
	for _, a := range args {
		if b := a.Type.Base; b == types.TDatetime || b == types.TTimestamp || b == types.TTime {
			t.Scale = max(t.Scale, a.Type.Scale)
		}
	}
	return t
}
