package expr

import (
	"context"
	"math"
	"math/rand/v2"
	"net"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cockroachdb/apd/v3"
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

func (sc *Scope) compileArgs(args []ast.ExprNode) ([]*Expr, error) {
	out := make([]*Expr, len(args))
	for i, a := range args {
		var err error
		if out[i], err = sc.Compile(a); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func evalArgs(c *Ctx, args []*Expr) ([]types.Value, error) {
	vs := make([]types.Value, len(args))
	for i, a := range args {
		v, err := a.Fn(c)
		if err != nil {
			return nil, err
		}
		vs[i] = v
	}
	return vs, nil
}

func wrongArgs(name string) error {
	return sqlerr.New(sqlerr.ErWrongArgCount, "Incorrect parameter count in the call to native function '%s'", name)
}

// compileFunc handles scalar functions.
func (sc *Scope) compileFunc(x *ast.FuncCallExpr) (*Expr, error) {
	name := x.FnName.L
	args, err := sc.compileArgs(x.Args)
	if err != nil {
		return nil, err
	}
	n := len(args)
	nargs := func(min, max int) error {
		if n < min || (max >= 0 && n > max) {
			return wrongArgs(strings.ToUpper(name))
		}
		return nil
	}
	mk := func(t types.ColType, f func(c *Ctx, vs []types.Value) (types.Value, error)) *Expr {
		return derived(func(c *Ctx) (types.Value, error) {
			vs, err := evalArgs(c, args)
			if err != nil {
				return types.Null, err
			}
			return f(c, vs)
		}, t, args...)
	}
	anyNull := func(vs []types.Value) bool {
		for _, v := range vs {
			if v.IsNull() {
				return true
			}
		}
		return false
	}
	switch name {
	case "now", "current_timestamp", "sysdate", "localtime", "localtimestamp", "utc_timestamp":
		e := mk(tDatetime, func(c *Ctx, vs []types.Value) (types.Value, error) {
			return types.TimeValue(time.Now().Truncate(time.Second)), nil
		})
		e.IsConst = false
		return e, nil
	case "curdate", "current_date", "utc_date":
		return mk(types.ColType{Base: types.TDate}, func(c *Ctx, vs []types.Value) (types.Value, error) {
			y, m, d := time.Now().Date()
			return types.TimeValue(time.Date(y, m, d, 0, 0, 0, 0, time.UTC)), nil
		}), nil
	case "unix_timestamp":
		return mk(TBigInt, func(c *Ctx, vs []types.Value) (types.Value, error) {
			if len(vs) == 0 {
				return types.IntValue(time.Now().Unix()), nil
			}
			if vs[0].IsNull() {
				return types.Null, nil
			}
			v, err := types.Coerce(vs[0], tDatetime)
			if err != nil {
				return types.Null, nil
			}
			return types.IntValue(v.Time().Unix()), nil
		}), nil
	case "database", "schema":
		return mk(TVarchar, func(c *Ctx, vs []types.Value) (types.Value, error) {
			if c.Env.DB == "" {
				return types.Null, nil
			}
			return types.StringValue(c.Env.DB), nil
		}), nil
	case "version":
		return mk(TVarchar, func(c *Ctx, vs []types.Value) (types.Value, error) {
			return types.StringValue(sysvar.Defs["version"].Def), nil
		}), nil
	case "connection_id":
		return mk(types.ColType{Base: types.TBigInt, Unsigned: true}, func(c *Ctx, vs []types.Value) (types.Value, error) {
			return types.UintValue(c.Env.owner.ID()), nil
		}), nil
	case "user", "current_user", "session_user", "system_user":
		return mk(TVarchar, func(c *Ctx, vs []types.Value) (types.Value, error) {
			// As MySQL: the account without the client's port.
			user, host := c.Env.owner.Client()
			if h, _, err := net.SplitHostPort(host); err == nil {
				host = h
			}
			return types.StringValue(user + "@" + host), nil
		}), nil
	case "last_insert_id":
		if err := nargs(0, 1); err != nil {
			return nil, err
		}
		return mk(types.ColType{Base: types.TBigInt, Unsigned: true}, func(c *Ctx, vs []types.Value) (types.Value, error) {
			if len(vs) == 1 {
				u := uint64(saturatingInt(vs[0]))
				if vs[0].K == types.KindUint {
					u = vs[0].Uint()
				}
				c.Env.LastInsertID = u
				return types.UintValue(u), nil
			}
			return types.UintValue(c.Env.LastInsertID), nil
		}), nil
	case "row_count":
		return mk(TBigInt, func(c *Ctx, vs []types.Value) (types.Value, error) {
			return types.IntValue(c.Env.RowCount), nil
		}), nil
	case "found_rows":
		return mk(TBigInt, func(c *Ctx, vs []types.Value) (types.Value, error) {
			return types.IntValue(c.Env.FoundRows), nil
		}), nil
	case "sleep":
		if err := nargs(1, 1); err != nil {
			return nil, err
		}
		e := mk(TBigInt, func(c *Ctx, vs []types.Value) (types.Value, error) {
			d := time.Duration(vs[0].ToFloat() * float64(time.Second))
			ctx := c.Env.StmtCtx
			if ctx == nil {
				ctx = context.Background()
			}
			t := time.NewTimer(d)
			defer t.Stop()
			select {
			case <-t.C:
				return types.IntValue(0), nil
			case <-ctx.Done():
				return types.IntValue(1), nil
			}
		})
		e.IsConst = false
		return e, nil
	case "rand":
		e := mk(tDouble, func(c *Ctx, vs []types.Value) (types.Value, error) {
			return types.FloatValue(rand.Float64()), nil
		})
		e.IsConst = false
		return e, nil
	case "concat":
		if err := nargs(1, -1); err != nil {
			return nil, err
		}
		return mk(TVarchar, func(c *Ctx, vs []types.Value) (types.Value, error) {
			if anyNull(vs) {
				return types.Null, nil
			}
			var n int64
			for _, v := range vs {
				n += int64(len(v.String()))
			}
			if c.overPacket("concat", n) {
				return types.Null, nil
			}
			var b strings.Builder
			b.Grow(int(n))
			for _, v := range vs {
				b.WriteString(v.String())
			}
			return types.StringValue(b.String()), nil
		}), nil
	case "repeat":
		if err := nargs(2, 2); err != nil {
			return nil, err
		}
		return mk(TVarchar, func(c *Ctx, vs []types.Value) (types.Value, error) {
			if anyNull(vs) {
				return types.Null, nil
			}
			s := vs[0].String()
			n := saturatingInt(vs[1])
			if n < 1 || s == "" {
				return types.StringValue(""), nil
			}
			// Past max_allowed_packet MySQL returns NULL (with a warning).
			if n > math.MaxInt64/int64(len(s)) || c.overPacket("repeat", n*int64(len(s))) {
				return types.Null, nil
			}
			return types.StringValue(strings.Repeat(s, int(n))), nil
		}), nil
	case "concat_ws":
		if err := nargs(2, -1); err != nil {
			return nil, err
		}
		return mk(TVarchar, func(c *Ctx, vs []types.Value) (types.Value, error) {
			if vs[0].IsNull() {
				return types.Null, nil
			}
			parts := []string{}
			n := int64(0)
			for _, v := range vs[1:] {
				if !v.IsNull() {
					parts = append(parts, v.String())
					n += int64(len(parts[len(parts)-1]) + len(vs[0].String()))
				}
			}
			if c.overPacket("concat_ws", n) {
				return types.Null, nil
			}
			return types.StringValue(strings.Join(parts, vs[0].String())), nil
		}), nil
	case "length", "octet_length", "char_length", "character_length":
		if err := nargs(1, 1); err != nil {
			return nil, err
		}
		chars := name == "char_length" || name == "character_length"
		return mk(TBigInt, func(c *Ctx, vs []types.Value) (types.Value, error) {
			if vs[0].IsNull() {
				return types.Null, nil
			}
			s := vs[0].String()
			if chars {
				return types.IntValue(int64(utf8.RuneCountInString(s))), nil
			}
			return types.IntValue(int64(len(s))), nil
		}), nil
	case "upper", "ucase", "lower", "lcase":
		if err := nargs(1, 1); err != nil {
			return nil, err
		}
		up := name == "upper" || name == "ucase"
		return mk(TVarchar, func(c *Ctx, vs []types.Value) (types.Value, error) {
			if vs[0].IsNull() {
				return types.Null, nil
			}
			if up {
				return types.StringValue(strings.ToUpper(vs[0].String())), nil
			}
			return types.StringValue(strings.ToLower(vs[0].String())), nil
		}), nil
	case "substring", "substr", "mid":
		if err := nargs(2, 3); err != nil {
			return nil, err
		}
		return mk(TVarchar, func(c *Ctx, vs []types.Value) (types.Value, error) {
			if anyNull(vs) {
				return types.Null, nil
			}
			r := []rune(vs[0].String())
			pos := saturatingInt(vs[1])
			l := int64(len(r))
			if len(vs) == 3 {
				l = saturatingInt(vs[2])
			}
			if pos < -int64(len(r)) {
				return types.StringValue(""), nil
			}
			if pos < 0 {
				pos = int64(len(r)) + pos + 1
			}
			if pos < 1 || pos > int64(len(r)) || l <= 0 {
				return types.StringValue(""), nil
			}
			end := int64(len(r))
			if l < end-(pos-1) {
				end = pos - 1 + l
			}
			if end > int64(len(r)) {
				end = int64(len(r))
			}
			return types.StringValue(string(r[pos-1 : end])), nil
		}), nil
	case "trim", "ltrim", "rtrim":
		if err := nargs(1, 3); err != nil {
			return nil, err
		}
		return mk(TVarchar, func(c *Ctx, vs []types.Value) (types.Value, error) {
			if vs[0].IsNull() {
				return types.Null, nil
			}
			s := vs[0].String()
			switch name {
			case "ltrim":
				return types.StringValue(strings.TrimLeft(s, " ")), nil
			case "rtrim":
				return types.StringValue(strings.TrimRight(s, " ")), nil
			}
			cut := " "
			if len(vs) > 1 && !vs[1].IsNull() {
				cut = vs[1].String()
			}
			for cut != "" && strings.HasPrefix(s, cut) {
				s = s[len(cut):]
			}
			for cut != "" && strings.HasSuffix(s, cut) {
				s = s[:len(s)-len(cut)]
			}
			return types.StringValue(s), nil
		}), nil
	case "abs":
		if err := nargs(1, 1); err != nil {
			return nil, err
		}
		return mk(args[0].Type, func(c *Ctx, vs []types.Value) (types.Value, error) {
			v := vs[0]
			if v.IsNull() {
				return v, nil
			}
			if types.Compare(v, types.IntValue(0)) < 0 {
				r, err := types.Negate(v)
				if re, ok := err.(*types.RangeError); ok {
					return r, sqlerr.New(sqlerr.ErDataOutOfRange, "%s value is out of range in '%s'", re.What, ExprText(x))
				}
				return r, err
			}
			return v, nil
		}), nil
	case "round", "truncate", "floor", "ceil", "ceiling":
		if err := nargs(1, 2); err != nil {
			return nil, err
		}
		t := args[0].Type
		if name == "floor" || name == "ceil" || name == "ceiling" {
			if t.Base == types.TDecimal {
				t = TBigInt
			}
		} else if t.Base == types.TDecimal && len(x.Args) == 2 {
			if d, ok := x.Args[1].(ast.ValueExpr); ok {
				if s, err := strconv.Atoi(strings.TrimSpace(ExprText(d))); err == nil && s >= 0 {
					t.Scale = s
				}
			}
		} else if t.Base == types.TDecimal {
			t.Scale = 0
		}
		return mk(t, func(c *Ctx, vs []types.Value) (types.Value, error) {
			if anyNull(vs) {
				return types.Null, nil
			}
			places := int64(0)
			if len(vs) == 2 {
				places = saturatingInt(vs[1])
			}
			return roundValue(name, vs[0], places)
		}), nil
	case "mod":
		if err := nargs(2, 2); err != nil {
			return nil, err
		}
		return mk(arithType(types.OpMod, args[0].Type, args[1].Type), func(c *Ctx, vs []types.Value) (types.Value, error) {
			v, err := types.Arith(types.OpMod, vs[0], vs[1])
			if err == nil && v.IsNull() && !vs[0].IsNull() && !vs[1].IsNull() {
				return v, c.divisionByZero()
			}
			return v, err
		}), nil
	case "ifnull", "nvl":
		if err := nargs(2, 2); err != nil {
			return nil, err
		}
		t := unifyTypes(args[0].Type, args[1].Type)
		return mk(t, func(c *Ctx, vs []types.Value) (types.Value, error) {
			if vs[0].IsNull() {
				return conform(vs[1], t), nil
			}
			return conform(vs[0], t), nil
		}), nil
	case "coalesce":
		if err := nargs(1, -1); err != nil {
			return nil, err
		}
		ts := make([]types.ColType, len(args))
		for i, a := range args {
			ts[i] = a.Type
		}
		t := unifyTypes(ts...)
		return mk(t, func(c *Ctx, vs []types.Value) (types.Value, error) {
			for _, v := range vs {
				if !v.IsNull() {
					return conform(v, t), nil
				}
			}
			return types.Null, nil
		}), nil
	case "nullif":
		if err := nargs(2, 2); err != nil {
			return nil, err
		}
		return mk(args[0].Type, func(c *Ctx, vs []types.Value) (types.Value, error) {
			if !vs[0].IsNull() && !vs[1].IsNull() && types.Compare(vs[0], vs[1]) == 0 {
				return types.Null, nil
			}
			return vs[0], nil
		}), nil
	case "if":
		if err := nargs(3, 3); err != nil {
			return nil, err
		}
		t := unifyTypes(args[1].Type, args[2].Type)
		return mk(t, func(c *Ctx, vs []types.Value) (types.Value, error) {
			if b, known := vs[0].Truthy(); known && b {
				return conform(vs[1], t), nil
			}
			return conform(vs[2], t), nil
		}), nil
	case "greatest", "least":
		if err := nargs(2, -1); err != nil {
			return nil, err
		}
		greatest := name == "greatest"
		return mk(args[0].Type, func(c *Ctx, vs []types.Value) (types.Value, error) {
			if anyNull(vs) {
				return types.Null, nil
			}
			best := vs[0]
			for _, v := range vs[1:] {
				cmp := types.Compare(v, best)
				if (greatest && cmp > 0) || (!greatest && cmp < 0) {
					best = v
				}
			}
			return best, nil
		}), nil
	}
	return nil, sqlerr.New(1305, "FUNCTION %s does not exist", name)
}

func roundValue(name string, v types.Value, places int64) (types.Value, error) {
	if places > 30 {
		places = 30
	}
	if places < -30 {
		places = -30
	}
	switch v.K {
	case types.KindInt, types.KindUint:
		if places >= 0 || name == "floor" || name == "ceil" || name == "ceiling" {
			return v, nil
		}
	case types.KindFloat:
		p := math.Pow10(int(places))
		switch name {
		case "floor":
			return types.FloatValue(math.Floor(v.F)), nil
		case "ceil", "ceiling":
			return types.FloatValue(math.Ceil(v.F)), nil
		case "truncate":
			return types.FloatValue(math.Trunc(v.F*p) / p), nil
		}
		return types.FloatValue(math.Round(v.F*p) / p), nil
	}
	d, ok := v.ToDecimal()
	if !ok {
		return types.Null, nil
	}
	ctx := *types.DecimalContext
	switch name {
	case "floor":
		ctx.Rounding = apd.RoundFloor
		places = 0
	case "ceil", "ceiling":
		ctx.Rounding = apd.RoundCeiling
		places = 0
	case "truncate":
		ctx.Rounding = apd.RoundDown
	}
	r := new(apd.Decimal)
	if _, err := ctx.Quantize(r, d, -int32(places)); err != nil {
		// Past DECIMAL's precision ('1e400'): the value is a DOUBLE, as
		// MariaDB computes it, not an internal error.
		return roundValue(name, types.FloatValue(v.ToFloat()), places)
	}
	if places < 0 {
		_, _ = ctx.Quantize(r, r, 0)
	}
	if name == "floor" || name == "ceil" || name == "ceiling" {
		if i, err := r.Int64(); err == nil {
			return types.IntValue(i), nil
		}
	}
	return types.DecimalValue(r), nil
}

// compileAgg registers an aggregate and returns a reference to its slot.
func (sc *Scope) compileAgg(x *ast.AggregateFuncExpr) (*Expr, error) {
	if sc.Aggs == nil || sc.inAgg {
		return nil, sqlerr.New(sqlerr.ErInvalidUseOfGroup, "Invalid use of group function")
	}
	name := strings.ToLower(x.F)
	spec := AggSpec{Name: name, Distinct: x.Distinct}
	switch name {
	case "count", "sum", "avg", "min", "max":
	default:
		return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support %s()", strings.ToUpper(name))
	}
	star := false
	if len(x.Args) == 1 {
		if v, ok := x.Args[0].(ast.ValueExpr); ok && name == "count" && v.GetValue() != nil {
			star = true
		}
	}
	if len(x.Args) != 1 {
		return nil, wrongArgs(strings.ToUpper(name))
	}
	if !star {
		sc.inAgg = true
		a, err := sc.Compile(x.Args[0])
		sc.inAgg = false
		if err != nil {
			return nil, err
		}
		spec.Arg = a
	}
	switch name {
	case "count":
		spec.Type = TBigInt
	case "sum", "avg":
		if spec.Arg.Type.Base == types.TDouble || spec.Arg.Type.Base == types.TFloat {
			spec.Type = tDouble
		} else {
			scale := spec.Arg.Type.Scale
			if name == "avg" {
				scale += types.DivPrecisionIncrement
			}
			spec.Type = types.ColType{Base: types.TDecimal, Length: 65, Scale: scale}
		}
	default:
		spec.Type = spec.Arg.Type
	}
	idx := len(*sc.Aggs)
	*sc.Aggs = append(*sc.Aggs, spec)
	return &Expr{Fn: func(c *Ctx) (types.Value, error) { return c.Aggs[idx], nil },
		Type: spec.Type, Col: -1, HasAgg: true, param: -1}, nil
}

// compileCast handles CAST(x AS type) and CONVERT(x, type).
func (sc *Scope) compileCast(x *ast.FuncCastExpr) (*Expr, error) {
	a, err := sc.Compile(x.Expr)
	if err != nil {
		return nil, err
	}
	ft := x.Tp
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
	case mysql.TypeDate:
		t = types.ColType{Base: types.TDate}
	default:
		t = types.ColType{Base: types.TText}
	}
	charLen := -1 // CAST(x AS CHAR(N)) keeps N characters
	if t.Base == types.TText && ft.GetFlen() > 0 {
		charLen = ft.GetFlen()
	}
	return derived(func(c *Ctx) (types.Value, error) {
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
			return types.Null, nil
		}
		return r, nil
	}, t, a), nil
}

// unifyTypes is the result type of IFNULL, COALESCE, IF and CASE: the
// common type of the branches, as MySQL aggregates them (any string makes
// a string, any DOUBLE a DOUBLE, any DECIMAL a DECIMAL with the largest
// scale). Unknown types (NULL literals, placeholders) do not count.
func unifyTypes(ts ...types.ColType) types.ColType {
	var out types.ColType
	for _, t := range ts {
		switch {
		case t.Base == 0:
		case out.Base == 0:
			out = t
		case t.IsString() || out.IsString():
			out = TVarchar
		case t.Base == types.TDouble || t.Base == types.TFloat || out.Base == types.TDouble || out.Base == types.TFloat:
			out = tDouble
		case t.Base == types.TDecimal || out.Base == types.TDecimal:
			out = types.ColType{Base: types.TDecimal, Length: 65, Scale: max(t.Scale, out.Scale)}
		case t.IsInteger() && out.IsInteger():
			out = types.ColType{Base: types.TBigInt, Unsigned: t.Unsigned && out.Unsigned}
		case t.Base != out.Base:
			out = TVarchar
		}
	}
	return out
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
