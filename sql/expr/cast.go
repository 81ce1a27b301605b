package expr

import (
	"math"
	"time"

	"github.com/cockroachdb/apd/v3"
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/plrun/plrun/sql/datetime"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// compileCast handles CAST(x AS type) and CONVERT(x, type).
func (sc *Scope) compileCast(x *ast.FuncCastExpr) (*Expr, error) {
	a, err := sc.Compile(x.Expr)
	if err != nil {
		return nil, err
	}
	ft := x.Tp
	if ft.GetType() == mysql.TypeDuration {
		return sc.castTime(a, ft.GetDecimal())
	}
	if isBinaryCast(ft) {
		return binaryCast(a, ft), nil
	}
	var t types.ColType
	switch ft.GetType() {
	case mysql.TypeLonglong, mysql.TypeLong, mysql.TypeTiny, mysql.TypeShort, mysql.TypeInt24:
		t = types.ColType{Base: types.TBigInt, Unsigned: mysql.HasUnsignedFlag(ft.GetFlag())}
	case mysql.TypeNewDecimal:
		p, s := ft.GetFlen(), ft.GetDecimal()
		if p <= 0 {
			p = 10
		}
		if s < 0 {
			s = 0
		}
		t = types.ColType{Base: types.TDecimal, Length: p, Scale: s}
	case mysql.TypeDouble, mysql.TypeFloat:
		t = tDouble
	case mysql.TypeDatetime, mysql.TypeTimestamp:
		t = tDatetime
		t.Scale = max(ft.GetDecimal(), 0)
	case mysql.TypeDate:
		t = types.ColType{Base: types.TDate}
	case mysql.TypeDuration:
		t = types.ColType{Base: types.TTime, Scale: max(ft.GetDecimal(), 0)}
	default:
		t = types.ColType{Base: types.TText}
	}
	charLen := -1 // CAST(x AS CHAR(N)) keeps N characters
	if t.Base == types.TText && ft.GetFlen() > 0 {
		charLen = ft.GetFlen()
	}
	t, canBeNull := castResult(ft, t, a, charLen)
	e := derived(func(c *Ctx) (types.Value, error) {
		v, err := a.Fn(c)
		if err != nil || v.IsNull() {
			return v, err
		}
		if t.IsInteger() && !t.Unsigned {
			if v.K == types.KindUint {
				return types.IntValue(int64(v.Uint())), nil // wraps, as MySQL's CAST does
			}
			if n, ok := v.ToInt64(); ok {
				return types.IntValue(n), nil
			}
			if v.K != types.KindString {
				return types.IntValue(saturatingInt(v)), nil
			}
		}
		if t.IsInteger() && t.Unsigned {
			return castUnsigned(v), nil
		}
		if charLen >= 0 {
			str := v.String()
			if r := []rune(str); len(r) > charLen {
				str = string(r[:charLen])
			}
			return types.StringValue(str), nil
		}
		r, err := types.Coerce(v, t)
		if err != nil && v.K == types.KindString && (t.IsInteger() || t.Base == types.TDecimal || t.Base == types.TDouble) {
			if c.Strict && !types.IsNumberText(v.S) {
				what := map[bool]string{true: "INTEGER", false: "DECIMAL"}[t.IsInteger()]
				if t.Base == types.TDouble {
					what = "DOUBLE"
				}
				return types.Null, sqlerr.New(sqlerr.ErTruncatedWrongValue, "Truncated incorrect %s value: '%s'", what, v.S)
			}
			// MySQL casts a string that is not a number by its numeric
			// prefix ('12abc' -> 12, 'abc' -> 0), with a warning.
			r, err = types.Coerce(types.FloatValue(v.ToFloat()), t)
		}
		if err != nil {
			if t.Base == types.TTime {
				c.Warn(sqlerr.Note{Level: "Warning", Code: sqlerr.ErTruncatedWrongValue, Message: "Incorrect time value: '" + v.String() + "'"})
			}
			return types.Null, nil
		}
		return r, nil
	}, t, a)
	e.NotNull = e.NotNull && !canBeNull
	e.FixedDecimals = true
	return e, nil
}

// castResult is the type MariaDB describes CAST(a AS ft) by (t is the
// type the value is converted to): a signed or unsigned integer as long
// as a's value prints, a string as long as N or a's value printed,
// DATETIME(n) with its digits. canBeNull: the cast may give NULL though
// its argument is not (a value that is not a date; a number the target
// cannot hold, which plrun casts to NULL where MariaDB clamps it): only an
// integer cast to an integer never does.
func castResult(ft interface {
	GetType() byte
	GetDecimal() int
}, t types.ColType, a *Expr, charLen int) (_ types.ColType, canBeNull bool) {
	switch {
	case t.IsInteger():
		at := a.Type
		switch {
		case at.Base == types.TDecimal:
			return intOfLength(charLength(at), t.Unsigned), true
		case at.IsInteger() && at.Unsigned == t.Unsigned:
			return intOfLength(precision(a)+boolInt(!t.Unsigned), t.Unsigned), false
		}
		t.Length = 20
		return t, !at.IsInteger()
	case t.Base == types.TDouble:
		t.Length, t.Scale = 22, notFixedDec // as long as a DOUBLE column, its decimals not fixed
		return t, true
	case t.Base == types.TDatetime:
		t.Scale = max(ft.GetDecimal(), 0)
		return t, true
	case t.Base == types.TDate:
		return t, true
	case t.Base == types.TText && charLen >= 0:
		return types.ColType{Base: types.TVarchar, Length: charLen}, true
	case t.Base == types.TText && a.Type.Base != 0 && a.Type.Base != types.TText && !a.Type.JSON:
		return types.ColType{Base: types.TVarchar, Length: charLength(a.Type)}, true
	}
	return t, true
}

// unifyTypes is the result type of IFNULL, COALESCE, IF and CASE: the
// common type of the branches, as MySQL aggregates them (any string makes
// a string, any DOUBLE a DOUBLE, any DECIMAL a DECIMAL with the largest
// scale). Unknown types (NULL literals, placeholders) do not count.
func unifyTypes(ts ...types.ColType) types.ColType {
	var u unifier
	for _, t := range ts {
		u.add(t, typePrecision(t))
	}
	return u.result()
}

// conform converts v to the unified type t (only where the printed value
// changes: DECIMAL scale, DOUBLE, string).
func conform(v types.Value, t types.ColType) types.Value {
	if v.IsNull() {
		return v
	}
	switch {
	case t.Base == types.TDecimal && v.K != types.KindString:
		if d, ok := v.ToDecimal(); ok {
			r := new(apd.Decimal)
			if _, err := types.DecimalContext.Quantize(r, d, -int32(t.Scale)); err == nil {
				return types.DecimalValue(r)
			}
		}
	case t.Base == types.TDouble && v.IsNumeric():
		return types.FloatValue(v.ToFloat())
	case t.IsBinary() && !v.IsBinary():
		return types.BytesValue(v.String())
	case t.IsString() && v.K != types.KindString:
		return types.StringValue(v.String())
	}
	return v
}

// castUnsigned is CAST(v AS UNSIGNED) as MySQL computes it: an integer
// wraps modulo 2^64 (-3 -> 18446744073709551613), a negative DECIMAL or
// DOUBLE becomes 0, a string is read as an integer (truncated) and wraps.
func castUnsigned(v types.Value) types.Value {
	switch v.K {
	case types.KindUint:
		return v
	case types.KindInt:
		return types.UintValue(uint64(v.I))
	case types.KindString:
		f := v.ToFloat()
		if f < 0 {
			return types.UintValue(uint64(int64(math.Trunc(f))))
		}
		if d, ok := v.ToDecimal(); ok {
			return castUnsigned(types.DecimalValue(d))
		}
		return types.UintValue(0)
	}
	if f := v.ToFloat(); f < 0 {
		return types.UintValue(0)
	}
	if r, err := types.Coerce(v, types.ColType{Base: types.TBigInt, Unsigned: true}); err == nil {
		return r
	}
	return types.UintValue(math.MaxUint64)
}

// UnifyTypes is unifyTypes for the result columns of a set operation
// (UNION, INTERSECT, EXCEPT), which MariaDB aggregates the same way.
func UnifyTypes(ts ...types.ColType) types.ColType { return unifyTypes(ts...) }

// Conform is conform for a set operation's rows.
func Conform(v types.Value, t types.ColType) types.Value { return conform(v, t) }

// castTime is CAST(a AS TIME[(fsp)]): TIME(a) (sql/funcs' family reads
// the clock of a DATETIME, a TIME or text) with fsp fractional digits,
// the rest cut off, as MariaDB does.
func (sc *Scope) castTime(a *Expr, fsp int) (*Expr, error) {
	fsp = min(max(fsp, 0), 6)
	var clock *Expr
	for _, family := range funcFamilies {
		e, err := family(&Call{X: &ast.FuncCallExpr{FnName: ast.NewCIStr("time")}, Name: "time", Args: []*Expr{a}})
		if err != nil {
			return nil, err
		}
		if e != nil {
			clock = e
			break
		}
	}
	if clock == nil {
		return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support CAST AS TIME")
	}
	unit := time.Duration(math.Pow10(6-fsp)) * time.Microsecond
	e := derived(func(c *Ctx) (types.Value, error) {
		v, err := clock.Fn(c)
		if err != nil || v.IsNull() {
			return v, err
		}
		d, _, ok := datetime.ParseDuration(v.String())
		if !ok {
			return types.Null, nil
		}
		return types.StringValue(datetime.FormatDuration(d-d%unit, fsp)), nil
	}, types.ColType{Base: types.TTime, Scale: fsp}, a)
	e.NotNull = false // text that is no time casts to NULL
	return e, nil
}
