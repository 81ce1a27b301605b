package funcs

import (
	"github.com/plrun/plrun/sql/expr"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/plrun/plrun/types"
)

// stringFunc compiles the string functions.
func stringFunc(f *expr.Call) (*expr.Expr, error) {
	name, nargs, mk := f.Name, f.NArgs, f.Mk
	switch name {
	case "concat":
		if err := nargs(1, -1); err != nil {
			return nil, err
		}
		return mk(expr.TVarchar, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			if expr.AnyNull(vs) {
				return types.Null, nil
			}
			var n int64
			for _, v := range vs {
				n += int64(len(v.String()))
			}
			if c.OverPacket("concat", n) {
				return types.Null, nil
			}
			var b strings.Builder
			b.Grow(int(n))
			binary := false
			for _, v := range vs {
				b.WriteString(v.String())
				binary = binary || v.IsBinary()
			}
			if binary {
				// one byte string makes CONCAT's result one
				return types.BytesValue(b.String()), nil
			}
			return types.StringValue(b.String()), nil
		}), nil
	case "repeat":
		if err := nargs(2, 2); err != nil {
			return nil, err
		}
		return mk(expr.TVarchar, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			if expr.AnyNull(vs) {
				return types.Null, nil
			}
			s := vs[0].String()
			n := expr.SaturatingInt(vs[1])
			if n < 1 || s == "" {
				return types.StringValue(""), nil
			}
			// Past max_allowed_packet MySQL returns NULL (with a warning).
			if n > math.MaxInt64/int64(len(s)) || c.OverPacket("repeat", n*int64(len(s))) {
				return types.Null, nil
			}
			return types.StringValue(strings.Repeat(s, int(n))), nil
		}), nil
	case "concat_ws":
		if err := nargs(2, -1); err != nil {
			return nil, err
		}
		return mk(expr.TVarchar, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
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
			if c.OverPacket("concat_ws", n) {
				return types.Null, nil
			}
			return types.StringValue(strings.Join(parts, vs[0].String())), nil
		}), nil
	case "length", "octet_length", "char_length", "character_length":
		if err := nargs(1, 1); err != nil {
			return nil, err
		}
		chars := name == "char_length" || name == "character_length"
		return mk(expr.TBigInt, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			if vs[0].IsNull() {
				return types.Null, nil
			}
			s := vs[0].String()
			if chars && !vs[0].IsBinary() {
				return types.IntValue(int64(utf8.RuneCountInString(s))), nil
			}
			return types.IntValue(int64(len(s))), nil
		}), nil
	case "upper", "ucase", "lower", "lcase":
		if err := nargs(1, 1); err != nil {
			return nil, err
		}
		up := name == "upper" || name == "ucase"
		return mk(expr.TVarchar, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			if vs[0].IsNull() || vs[0].IsBinary() {
				return vs[0], nil // bytes have no case: MySQL leaves them
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
		return mk(expr.TVarchar, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			if expr.AnyNull(vs) {
				return types.Null, nil
			}
			r, bin := unitsOf(vs[0])
			pos := expr.SaturatingInt(vs[1])
			l := int64(len(r))
			if len(vs) == 3 {
				l = expr.SaturatingInt(vs[2])
			}
			if pos < -int64(len(r)) {
				return fromUnits(nil, bin), nil
			}
			if pos < 0 {
				pos = int64(len(r)) + pos + 1
			}
			if pos < 1 || pos > int64(len(r)) || l <= 0 {
				return fromUnits(nil, bin), nil
			}
			end := int64(len(r))
			if l < end-(pos-1) {
				end = pos - 1 + l
			}
			if end > int64(len(r)) {
				end = int64(len(r))
			}
			return fromUnits(r[pos-1:end], bin), nil
		}), nil
	case "trim", "ltrim", "rtrim":
		if err := nargs(1, 3); err != nil {
			return nil, err
		}
		return mk(expr.TVarchar, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
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
			if len(vs) > 1 {
				if vs[1].IsNull() {
					return types.Null, nil
				}
				cut = vs[1].String()
			}
			// TRIM([BOTH|LEADING|TRAILING] x FROM s): the direction comes
			// third, as the parser passes it (trimDirection)
			lead, trail := true, true
			if len(vs) == 3 {
				lead, trail = vs[2].S != "TRAILING", vs[2].S != "LEADING"
			}
			for lead && cut != "" && strings.HasPrefix(s, cut) {
				s = s[len(cut):]
			}
			for trail && cut != "" && strings.HasSuffix(s, cut) {
				s = s[:len(s)-len(cut)]
			}
			return types.StringValue(s), nil
		}), nil
	}
	return nil, nil
}
