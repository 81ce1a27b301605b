package funcs

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/plrun/plrun/sql/expr"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/datetime"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// unitArg is the INTERVAL unit written as argument i (DAY, DAY_SECOND...).
func unitArg(f *expr.Call, i int) (string, error) {
	if i < len(f.X.Args) {
		if u, ok := f.X.Args[i].(*ast.TimeUnitExpr); ok {
			name := strings.ToUpper(u.Unit.String())
			if _, known := datetime.Units[name]; known {
				return name, nil
			}
		}
	}
	return "", sqlerr.New(sqlerr.ErParse, "You have an error in your SQL syntax; check the manual that corresponds to your MariaDB server version for the right syntax to use near '%s'", strings.ToUpper(f.Name))
}

// dateCalcFunc compiles date arithmetic and the text forms of dates.
func dateCalcFunc(f *expr.Call) (*expr.Expr, error) {
	switch f.Name {
	case "date_add", "date_sub", "adddate", "subdate":
		if err := f.NArgs(2, 3); err != nil {
			return nil, err
		}
		unit := "DAY" // ADDDATE(d, n) counts days
		if len(f.Args) == 3 {
			var err error
			if unit, err = unitArg(f, 2); err != nil {
				return nil, err
			}
		}
		return addInterval(f, f.Args[0], f.Args[1], unit, f.Name == "date_sub" || f.Name == "subdate"), nil
	case "timestampadd":
		if err := f.NArgs(3, 3); err != nil {
			return nil, err
		}
		unit, err := unitArg(f, 0)
		if err != nil {
			return nil, err
		}
		return addInterval(f, f.Args[2], f.Args[1], unit, false), nil
	case "timestampdiff":
		if err := f.NArgs(3, 3); err != nil {
			return nil, err
		}
		unit, err := unitArg(f, 0)
		if err != nil {
			return nil, err
		}
		return f.Mk(expr.TBigInt, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			a, ok1 := timeArg(c, vs[1])
			b, ok2 := timeArg(c, vs[2])
			if !ok1 || !ok2 {
				return types.Null, nil
			}
			n, _ := datetime.Diff(unit, a.t, b.t)
			return types.IntValue(n), nil
		}), nil
	case "datediff":
		if err := f.NArgs(2, 2); err != nil {
			return nil, err
		}
		return f.Mk(expr.TBigInt, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			a, ok1 := timeArg(c, vs[0])
			b, ok2 := timeArg(c, vs[1])
			if !ok1 || !ok2 {
				return types.Null, nil
			}
			day := func(t time.Time) int64 {
				return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC).Unix() / 86400
			}
			return types.IntValue(day(a.t) - day(b.t)), nil
		}), nil
	case "timediff":
		if err := f.NArgs(2, 2); err != nil {
			return nil, err
		}
		return f.Mk(timeOf(f.Args...), func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			if expr.AnyNull(vs) {
				return types.Null, nil
			}
			// two datetimes, or two times; one of each is NULL
			isDatetime := func(v types.Value) bool {
				_, ok := datetime.Parse(v.String())
				return v.K == types.KindTime || ok && strings.ContainsAny(v.String(), "-/")
			}
			da, db := isDatetime(vs[0]), isDatetime(vs[1])
			if da != db {
				return types.Null, nil
			}
			if da {
				ma, ok1 := timeArg(c, vs[0])
				mb, ok2 := timeArg(c, vs[1])
				if !ok1 || !ok2 {
					return types.Null, nil
				}
				return timeText(ma.t.Sub(mb.t), max(ma.fsp, mb.fsp)), nil
			}
			ta, fa, ok1 := clockArg(c, vs[0])
			tb, fb, ok2 := clockArg(c, vs[1])
			if !ok1 || !ok2 {
				return types.Null, nil
			}
			return timeText(ta-tb, max(fa, fb)), nil
		}), nil
	case "time_to_sec":
		if err := f.NArgs(1, 1); err != nil {
			return nil, err
		}
		return f.Mk(expr.TBigInt, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			d, _, ok := clockArg(c, vs[0])
			if !ok {
				return types.Null, nil
			}
			return types.IntValue(int64(d / time.Second)), nil
		}), nil
	case "sec_to_time":
		if err := f.NArgs(1, 1); err != nil {
			return nil, err
		}
		return f.Mk(tTime, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			if vs[0].IsNull() {
				return types.Null, nil
			}
			return secToTime(vs[0]), nil
		}), nil
	case "date_format":
		if err := f.NArgs(2, 2); err != nil {
			return nil, err
		}
		return f.Mk(expr.TVarchar, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			if expr.AnyNull(vs) {
				return types.Null, nil
			}
			m, ok := timeArg(c, vs[0])
			if !ok {
				return types.Null, nil
			}
			return types.StringValue(datetime.Format(m.t, vs[1].String())), nil
		}), nil
	case "str_to_date":
		return strToDate(f)
	}
	return nil, nil
}

// addInterval is d + INTERVAL n unit (or minus): a DATE stays a DATE
// for units of days or more; text in gives text out, as in MariaDB.
func addInterval(f *expr.Call, d, n *expr.Expr, unit string, sub bool) *expr.Expr {
	hasTime := datetime.HasTime(unit)
	t := momentType(d.Type, !hasTime, 0)
	if t.Base == types.TDatetime && (unit == "MICROSECOND" || strings.HasSuffix(unit, "_MICROSECOND")) {
		t.Scale = 6
	}
	return expr.Derived(func(c *expr.Ctx) (types.Value, error) {
		dv, err := d.Fn(c)
		if err != nil {
			return types.Null, err
		}
		nv, err := n.Fn(c)
		if err != nil || dv.IsNull() || nv.IsNull() {
			return types.Null, err
		}
		m, ok := timeArg(c, dv)
		if !ok {
			return types.Null, nil
		}
		iv, ok := datetime.ParseInterval(nv.String(), unit)
		if !ok {
			return types.Null, nil
		}
		if sub {
			iv.Months, iv.Micros = -iv.Months, -iv.Micros
		}
		r, ok := datetime.Add(m.t, iv)
		if !ok {
			c.Warn(sqlerr.Note{Level: "Warning", Code: sqlerr.ErDatetimeOverflow, Message: "Datetime function: datetime field overflow"})
			return types.Null, nil
		}
		out := moment{t: r, isDate: m.isDate && !hasTime, fsp: max(m.fsp, iv.Fsp)}
		if t.Base == types.TDatetime {
			out.fsp = max(out.fsp, t.Scale)
		}
		v := out.value()
		if t.IsString() {
			return types.StringValue(v.String()), nil
		}
		return v, nil
	}, t, d, n)
}

// strToDate is STR_TO_DATE(s, format): a DATE, TIME or DATETIME as the
// format has date parts, time parts or both; no match is NULL with
// warning 1411.
func strToDate(f *expr.Call) (*expr.Expr, error) {
	if err := f.NArgs(2, 2); err != nil {
		return nil, err
	}
	kind := byte('x')
	if v, ok := f.Args[1].Literal(); ok && !v.IsNull() {
		kind = datetime.FormatKind(v.String())
	}
	t := expr.TDatetime
	switch kind {
	case 'd':
		t = types.ColType{Base: types.TDate}
	case 't':
		t = tTime
	}
	return f.Mk(t, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
		if expr.AnyNull(vs) {
			return types.Null, nil
		}
		tm, ok := datetime.StrToDate(vs[0].String(), vs[1].String())
		if !ok {
			c.Warn(sqlerr.Note{Level: "Warning", Code: sqlerr.ErWrongValueForType, Message: "Incorrect datetime value: '" + vs[0].String() + "' for function str_to_date"})
			return types.Null, nil
		}
		switch kind {
		case 'd':
			return types.DateValue(tm), nil
		case 't':
			return timeText(tm.Sub(time.Date(tm.Year(), tm.Month(), tm.Day(), 0, 0, 0, 0, time.UTC)), 0), nil
		}
		fsp := 0
		if strings.Contains(vs[1].String(), "%f") {
			fsp = 6
		}
		return types.TimeValueFsp(tm, fsp), nil
	}), nil
}

// secToTime is SEC_TO_TIME(v): a DECIMAL's fraction keeps its digits (up
// to six, cut), a DOUBLE's or text's prints all six; past TIME's range
// it is the nearest end.
func secToTime(v types.Value) types.Value {
	fsp := 0
	switch v.K {
	case types.KindDecimal:
		if e := -int(v.D.Exponent); e > 0 {
			fsp = min(e, 6)
		}
	case types.KindFloat, types.KindString:
		if f := v.ToFloat(); f != math.Trunc(f) {
			fsp = 6
		}
	}
	limit := int64(datetime.MaxTime / time.Microsecond)
	micros := max(-limit/1e6, min(limit/1e6, expr.SaturatingInt(v))) * 1e6
	if fsp > 0 {
		// the exact decimal digits: 0.3 is 300000 us, not 299999
		d, ok := v.ToDecimal()
		if !ok {
			return types.Null
		}
		whole, frac, _ := strings.Cut(strings.TrimPrefix(d.Text('f'), "-"), ".")
		w, err := strconv.ParseInt(whole, 10, 64)
		if err != nil || w > limit/1e6 {
			w, frac = limit/1e6, "999999"
		}
		us, _ := strconv.ParseInt((frac + "000000")[:6], 10, 64)
		micros = min(w*1e6+us, limit)
		if d.Negative {
			micros = -micros
		}
	}
	return timeText(time.Duration(micros)*time.Microsecond, fsp)
}
