package expr

import (
	"strings"
	"time"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/datetime"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// unitArg is the INTERVAL unit written as argument i (DAY, DAY_SECOND...).
func (f *call) unitArg(i int) (string, error) {
	if i < len(f.x.Args) {
		if u, ok := f.x.Args[i].(*ast.TimeUnitExpr); ok {
			name := strings.ToUpper(u.Unit.String())
			if _, known := datetime.Units[name]; known {
				return name, nil
			}
		}
	}
	return "", sqlerr.New(sqlerr.ErParse, "You have an error in your SQL syntax; check the manual that corresponds to your MariaDB server version for the right syntax to use near '%s'", strings.ToUpper(f.name))
}

// dateCalcFunc compiles date arithmetic and the text forms of dates.
func dateCalcFunc(f *call) (*Expr, error) {
	switch f.name {
	case "date_add", "date_sub", "adddate", "subdate":
		if err := f.nargs(2, 3); err != nil {
			return nil, err
		}
		unit := "DAY" // ADDDATE(d, n) counts days
		if len(f.args) == 3 {
			var err error
			if unit, err = f.unitArg(2); err != nil {
				return nil, err
			}
		}
		return addInterval(f, f.args[0], f.args[1], unit, f.name == "date_sub" || f.name == "subdate"), nil
	case "timestampadd":
		if err := f.nargs(3, 3); err != nil {
			return nil, err
		}
		unit, err := f.unitArg(0)
		if err != nil {
			return nil, err
		}
		return addInterval(f, f.args[2], f.args[1], unit, false), nil
	case "timestampdiff":
		if err := f.nargs(3, 3); err != nil {
			return nil, err
		}
		unit, err := f.unitArg(0)
		if err != nil {
			return nil, err
		}
		return f.mk(TBigInt, func(c *Ctx, vs []types.Value) (types.Value, error) {
			a, ok1 := c.timeArg(vs[1])
			b, ok2 := c.timeArg(vs[2])
			if !ok1 || !ok2 {
				return types.Null, nil
			}
			n, _ := datetime.Diff(unit, a.t, b.t)
			return types.IntValue(n), nil
		}), nil
	case "datediff":
		if err := f.nargs(2, 2); err != nil {
			return nil, err
		}
		return f.mk(TBigInt, func(c *Ctx, vs []types.Value) (types.Value, error) {
			a, ok1 := c.timeArg(vs[0])
			b, ok2 := c.timeArg(vs[1])
			if !ok1 || !ok2 {
				return types.Null, nil
			}
			day := func(t time.Time) int64 {
				return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC).Unix() / 86400
			}
			return types.IntValue(day(a.t) - day(b.t)), nil
		}), nil
	case "timediff":
		if err := f.nargs(2, 2); err != nil {
			return nil, err
		}
		return f.mk(tTime, func(c *Ctx, vs []types.Value) (types.Value, error) {
			if anyNull(vs) {
				return types.Null, nil
			}
			// two datetimes, or two times; one of each is NULL
			a, okA := datetime.Parse(vs[0].String())
			b, okB := datetime.Parse(vs[1].String())
			if vs[0].K == types.KindTime || vs[1].K == types.KindTime || (okA && okB && strings.ContainsAny(vs[0].String(), "-/") && strings.ContainsAny(vs[1].String(), "-/")) {
				ma, ok1 := c.timeArg(vs[0])
				mb, ok2 := c.timeArg(vs[1])
				if !ok1 || !ok2 {
					return types.Null, nil
				}
				return timeText(ma.t.Sub(mb.t), max(ma.fsp, mb.fsp)), nil
			}
			_, _ = a, b
			da, fa, ok1 := c.clockArg(vs[0])
			db, fb, ok2 := c.clockArg(vs[1])
			if !ok1 || !ok2 {
				return types.Null, nil
			}
			return timeText(da-db, max(fa, fb)), nil
		}), nil
	case "time_to_sec":
		if err := f.nargs(1, 1); err != nil {
			return nil, err
		}
		return f.mk(TBigInt, func(c *Ctx, vs []types.Value) (types.Value, error) {
			d, _, ok := c.clockArg(vs[0])
			if !ok {
				return types.Null, nil
			}
			return types.IntValue(int64(d / time.Second)), nil
		}), nil
	case "sec_to_time":
		if err := f.nargs(1, 1); err != nil {
			return nil, err
		}
		return f.mk(tTime, func(c *Ctx, vs []types.Value) (types.Value, error) {
			if vs[0].IsNull() {
				return types.Null, nil
			}
			return timeText(time.Duration(saturatingInt(vs[0])%(1<<33))*time.Second, 0), nil
		}), nil
	case "date_format":
		if err := f.nargs(2, 2); err != nil {
			return nil, err
		}
		return f.mk(TVarchar, func(c *Ctx, vs []types.Value) (types.Value, error) {
			if anyNull(vs) {
				return types.Null, nil
			}
			m, ok := c.timeArg(vs[0])
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
func addInterval(f *call, d, n *Expr, unit string, sub bool) *Expr {
	hasTime := datetime.HasTime(unit)
	t := momentType(d.Type, !hasTime, 0)
	if t.Base == types.TDatetime && (unit == "MICROSECOND" || strings.HasSuffix(unit, "_MICROSECOND")) {
		t.Scale = 6
	}
	return derived(func(c *Ctx) (types.Value, error) {
		dv, err := d.Fn(c)
		if err != nil {
			return types.Null, err
		}
		nv, err := n.Fn(c)
		if err != nil || dv.IsNull() || nv.IsNull() {
			return types.Null, err
		}
		m, ok := c.timeArg(dv)
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
			c.warn(sqlerr.Note{Level: "Warning", Code: sqlerr.ErDatetimeOverflow, Message: "Datetime function: datetime field overflow"})
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
func strToDate(f *call) (*Expr, error) {
	if err := f.nargs(2, 2); err != nil {
		return nil, err
	}
	kind := byte('x')
	if f.args[1].IsConst && f.args[1].param < 0 {
		if v, err := f.args[1].Fn(&Ctx{}); err == nil && !v.IsNull() {
			kind = datetime.FormatKind(v.String())
		}
	}
	t := tDatetime
	switch kind {
	case 'd':
		t = types.ColType{Base: types.TDate}
	case 't':
		t = tTime
	}
	return f.mk(t, func(c *Ctx, vs []types.Value) (types.Value, error) {
		if anyNull(vs) {
			return types.Null, nil
		}
		tm, ok := datetime.StrToDate(vs[0].String(), vs[1].String())
		if !ok {
			c.warn(sqlerr.Note{Level: "Warning", Code: sqlerr.ErWrongValueForType, Message: "Incorrect datetime value: '" + vs[0].String() + "' for function str_to_date"})
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
