package funcs

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/expr"
	"strings"
	"time"

	"github.com/plrun/plrun/sql/datetime"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// constFsp is the fractional-seconds argument of NOW(fsp) and its kin: a
// constant 0-6 (MariaDB's grammar takes only a literal), else 1426.
func constFsp(f *expr.Call) (int, error) {
	if len(f.Args) == 0 {
		return 0, nil
	}
	v, ok := f.Args[0].Literal()
	if !ok {
		return 0, sqlerr.New(sqlerr.ErParse, "You have an error in your SQL syntax; check the manual that corresponds to your MariaDB server version for the right syntax to use")
	}
	n := expr.SaturatingInt(v)
	if n < 0 || n > 6 {
		name := f.Name
		if name == "now" {
			name = "current_timestamp"
		}
		return 0, sqlerr.New(sqlerr.ErTooBigPrecision, "Too big precision specified for '%s'. Maximum is 6", name)
	}
	return int(n), nil
}

// datePartFunc compiles the functions of one date: its parts, its names,
// its week, the day it is in.
func datePartFunc(f *expr.Call) (*expr.Expr, error) {
	onDate := func(t types.ColType, fn func(m moment) types.Value) (*expr.Expr, error) {
		if err := f.NArgs(1, 1); err != nil {
			return nil, err
		}
		return f.Mk(t, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			m, ok := timeArg(c, vs[0])
			if !ok {
				return types.Null, nil
			}
			return fn(m), nil
		}), nil
	}
	onClock := func(fn func(d time.Duration) int64) (*expr.Expr, error) {
		if err := f.NArgs(1, 1); err != nil {
			return nil, err
		}
		return f.Mk(expr.TBigInt, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			d, _, ok := clockArg(c, vs[0])
			if !ok {
				return types.Null, nil
			}
			if d < 0 {
				d = -d
			}
			return types.IntValue(fn(d)), nil
		}), nil
	}
	num := func(fn func(t time.Time) int) func(m moment) types.Value {
		return func(m moment) types.Value { return types.IntValue(int64(fn(m.t))) }
	}
	switch f.Name {
	case "year":
		return onDate(expr.TBigInt, num(time.Time.Year))
	case "month":
		return onDate(expr.TBigInt, num(func(t time.Time) int { return int(t.Month()) }))
	case "day", "dayofmonth":
		return onDate(expr.TBigInt, num(time.Time.Day))
	case "dayofyear":
		return onDate(expr.TBigInt, num(time.Time.YearDay))
	case "dayofweek":
		return onDate(expr.TBigInt, num(func(t time.Time) int { return int(t.Weekday()) + 1 }))
	case "weekday":
		return onDate(expr.TBigInt, num(func(t time.Time) int { return (int(t.Weekday()) + 6) % 7 }))
	case "quarter":
		return onDate(expr.TBigInt, num(func(t time.Time) int { return (int(t.Month())-1)/3 + 1 }))
	case "weekofyear":
		return onDate(expr.TBigInt, num(func(t time.Time) int { w, _ := datetime.Week(t, datetime.WeekMode(3)); return w }))
	case "dayname":
		return onDate(expr.TVarchar, func(m moment) types.Value { return types.StringValue(datetime.DayName(m.t)) })
	case "monthname":
		return onDate(expr.TVarchar, func(m moment) types.Value { return types.StringValue(datetime.MonthName(m.t.Month())) })
	case "to_days":
		return onDate(expr.TBigInt, num(func(t time.Time) int { return int(floorDiv(t.Unix(), 86400)) + 719528 }))
	case "date":
		return onDate(types.ColType{Base: types.TDate}, func(m moment) types.Value { return types.DateValue(m.t) })
	case "last_day":
		return onDate(types.ColType{Base: types.TDate}, func(m moment) types.Value {
			return types.DateValue(time.Date(m.t.Year(), m.t.Month(), datetime.DaysIn(m.t.Year(), m.t.Month()), 0, 0, 0, 0, time.UTC))
		})
	case "hour":
		return onClock(func(d time.Duration) int64 { return int64(d / time.Hour) })
	case "minute":
		return onClock(func(d time.Duration) int64 { return int64(d/time.Minute) % 60 })
	case "second":
		return onClock(func(d time.Duration) int64 { return int64(d/time.Second) % 60 })
	case "microsecond":
		return onClock(func(d time.Duration) int64 { return int64(d/time.Microsecond) % 1e6 })
	case "time":
		if err := f.NArgs(1, 1); err != nil {
			return nil, err
		}
		return f.Mk(timeOf(f.Args...), func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			d, fsp, ok := clockArg(c, vs[0])
			if !ok {
				return types.Null, nil
			}
			return timeText(d, fsp), nil
		}), nil
	case "week", "yearweek":
		if err := f.NArgs(1, 2); err != nil {
			return nil, err
		}
		year := f.Name == "yearweek"
		return f.Mk(expr.TBigInt, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			if expr.AnyNull(vs) {
				return types.Null, nil
			}
			m, ok := timeArg(c, vs[0])
			if !ok {
				return types.Null, nil
			}
			mode := 0 // default_week_format
			if len(vs) == 2 {
				mode = int(expr.SaturatingInt(vs[1]) & 7)
			}
			if year {
				w, y := datetime.Week(m.t, datetime.YearWeekMode(mode))
				return types.IntValue(int64(y*100 + w)), nil
			}
			w, _ := datetime.Week(m.t, datetime.WeekMode(mode))
			return types.IntValue(int64(w)), nil
		}), nil
	case "makedate":
		if err := f.NArgs(2, 2); err != nil {
			return nil, err
		}
		return f.Mk(types.ColType{Base: types.TDate}, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			if expr.AnyNull(vs) {
				return types.Null, nil
			}
			y, doy := expr.SaturatingInt(vs[0]), expr.SaturatingInt(vs[1])
			if doy <= 0 || y < 0 || y > 9999 {
				return types.Null, nil
			}
			if y < 100 {
				y = int64(twoDigitYear(int(y)))
			}
			t := time.Date(int(y), 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, int(min(doy, 4000000))-1)
			if t.Year() > 9999 {
				return types.Null, nil
			}
			return types.DateValue(t), nil
		}), nil
	case "extract":
		return extractFunc(f)
	case strings.ToLower(ast.DateLiteral), strings.ToLower(ast.TimestampLiteral), strings.ToLower(ast.TimeLiteral):
		return literalFunc(f)
	}
	return dateCalcFunc(f)
}

func twoDigitYear(y int) int {
	if y < 70 {
		return y + 2000
	}
	return y + 1900
}

// extractFunc is EXTRACT(unit FROM d): the unit's fields run together as
// one number (DAY_SECOND of 5 01:02:03 is 5010203).
func extractFunc(f *expr.Call) (*expr.Expr, error) {
	if err := f.NArgs(2, 2); err != nil {
		return nil, err
	}
	unit, err := unitArg(f, 0)
	if err != nil {
		return nil, err
	}
	t := expr.TBigInt
	if n, ok := extractDigits[unit]; ok {
		t = expr.IntOfLength(n, false)
	}
	return f.Mk(t, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
		var t time.Time
		var clock time.Duration
		if strings.Contains(unit, "DAY") || strings.Contains(unit, "YEAR") || strings.Contains(unit, "MONTH") || unit == "WEEK" || unit == "QUARTER" {
			m, ok := timeArg(c, vs[1])
			if !ok {
				return types.Null, nil
			}
			t = m.t
			clock = t.Sub(time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC))
		} else {
			d, _, ok := clockArg(c, vs[1])
			if !ok {
				return types.Null, nil
			}
			clock = d
		}
		h, mi, s, us := int64(clock/time.Hour), int64(clock/time.Minute)%60, int64(clock/time.Second)%60, int64(clock/time.Microsecond)%1e6
		d := int64(t.Day())
		var n int64
		switch unit {
		case "YEAR":
			n = int64(t.Year())
		case "QUARTER":
			n = int64((t.Month()-1)/3 + 1)
		case "MONTH":
			n = int64(t.Month())
		case "WEEK":
			w, _ := datetime.Week(t, datetime.WeekMode(0))
			n = int64(w)
		case "DAY":
			n = d
		case "HOUR":
			n = h
		case "MINUTE":
			n = mi
		case "SECOND":
			n = s
		case "MICROSECOND":
			n = us
		case "YEAR_MONTH":
			n = int64(t.Year())*100 + int64(t.Month())
		case "DAY_HOUR":
			n = d*100 + h
		case "DAY_MINUTE":
			n = (d*100+h)*100 + mi
		case "DAY_SECOND":
			n = ((d*100+h)*100+mi)*100 + s
		case "DAY_MICROSECOND":
			n = (((d*100+h)*100+mi)*100+s)*1e6 + us
		case "HOUR_MINUTE":
			n = h*100 + mi
		case "HOUR_SECOND":
			n = (h*100+mi)*100 + s
		case "HOUR_MICROSECOND":
			n = ((h*100+mi)*100+s)*1e6 + us
		case "MINUTE_SECOND":
			n = mi*100 + s
		case "MINUTE_MICROSECOND":
			n = (mi*100+s)*1e6 + us
		case "SECOND_MICROSECOND":
			n = s*1e6 + us
		}
		return types.IntValue(n), nil
	}), nil
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// literalFunc is DATE '...', TIMESTAMP '...' and TIME '...': text that is
// not one is error 1525, as MariaDB gives it.
func literalFunc(f *expr.Call) (*expr.Expr, error) {
	if err := f.NArgs(1, 1); err != nil {
		return nil, err
	}
	v, ok := f.Args[0].Literal()
	if !ok {
		return nil, sqlerr.New(sqlerr.ErParse, "You have an error in your SQL syntax")
	}
	s := v.String()
	word := map[string]string{strings.ToLower(ast.DateLiteral): "DATE", strings.ToLower(ast.TimestampLiteral): "TIMESTAMP", strings.ToLower(ast.TimeLiteral): "TIME"}[f.Name]
	bad := sqlerr.New(sqlerr.ErWrongValue, "Incorrect %s value: '%s'", word, s)
	switch word {
	case "TIME":
		d, fsp, ok := datetime.ParseDuration(s)
		if !ok {
			return nil, bad
		}
		return expr.ConstExpr(timeText(d, fsp), types.ColType{Base: types.TTime}), nil
	case "DATE":
		p, ok := datetime.Parse(s)
		if !ok || !p.IsDate {
			return nil, bad
		}
		return expr.ConstExpr(types.DateValue(p.T), types.ColType{Base: types.TDate}), nil
	}
	p, ok := datetime.Parse(s)
	if !ok {
		return nil, bad
	}
	return expr.ConstExpr(types.TimeValueFsp(p.T, p.Fsp), types.ColType{Base: types.TDatetime, Scale: p.Fsp}), nil
}

// extractDigits is how long MariaDB says EXTRACT(unit ...) is: the
// unit's digits, and a sign for the parts a TIME can make negative.
var extractDigits = map[string]int{
	"YEAR": 4, "YEAR_MONTH": 6, "QUARTER": 1, "MONTH": 2, "WEEK": 2,
	"DAY": 3, "DAY_HOUR": 5, "DAY_MINUTE": 7, "DAY_SECOND": 9,
	"HOUR": 3, "MINUTE": 3, "SECOND": 3, "MICROSECOND": 7, "HOUR_MINUTE": 5, "HOUR_SECOND": 7,
	"MINUTE_SECOND": 5, "DAY_MICROSECOND": 15, "HOUR_MICROSECOND": 13, "MINUTE_MICROSECOND": 11,
	"SECOND_MICROSECOND": 9,
}
