package funcs

import (
	"github.com/plrun/plrun/sql/expr"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// listFunc compiles the functions that pick from a list of strings
// (ELT, FIELD, FIND_IN_SET) and FORMAT.
func listFunc(f *expr.Call) (*expr.Expr, error) {
	switch f.Name {
	case "elt":
		if err := f.NArgs(2, -1); err != nil {
			return nil, err
		}
		return f.Mk(expr.TVarchar, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			if vs[0].IsNull() {
				return types.Null, nil
			}
			n := expr.SaturatingInt(vs[0])
			if n < 1 || n >= int64(len(vs)) {
				return types.Null, nil
			}
			return vs[n], nil
		}), nil
	case "field":
		if err := f.NArgs(2, -1); err != nil {
			return nil, err
		}
		return f.Mk(expr.TBigInt, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			if vs[0].IsNull() {
				return types.IntValue(0), nil
			}
			for i, v := range vs[1:] {
				if !v.IsNull() && types.Compare(vs[0], v) == 0 {
					return types.IntValue(int64(i + 1)), nil
				}
			}
			return types.IntValue(0), nil
		}), nil
	case "find_in_set":
		if err := f.NArgs(2, 2); err != nil {
			return nil, err
		}
		return f.Mk(expr.TBigInt, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			if expr.AnyNull(vs) {
				return types.Null, nil
			}
			s := vs[0].String()
			if strings.Contains(s, ",") {
				return types.IntValue(0), nil
			}
			for i, p := range strings.Split(vs[1].String(), ",") {
				if types.CompareStrings(p, s) == 0 && (p != "" || vs[1].String() != "") {
					return types.IntValue(int64(i + 1)), nil
				}
			}
			return types.IntValue(0), nil
		}), nil
	case "format":
		return formatFunc(f)
	}
	return nil, nil
}

// separators are FORMAT's thousands and decimal marks by locale, for the
// locales done; another is refused (1235) rather than printed wrong.
var separators = map[string][2]string{
	"en_US": {",", "."}, "en_GB": {",", "."}, "en_AU": {",", "."}, "en_CA": {",", "."}, "en_IN": {",", "."},
	"ja_JP": {",", "."}, "zh_CN": {",", "."}, "ko_KR": {",", "."}, "th_TH": {",", "."},
	"de_DE": {".", ","}, "es_ES": {".", ","}, "it_IT": {".", ","}, "nl_NL": {".", ","}, "pt_BR": {".", ","},
	"id_ID": {".", ","}, "da_DK": {".", ","}, "tr_TR": {".", ","},
}

var formatCtx = func() *apd.Context {
	c := apd.BaseContext.WithPrecision(100)
	c.Rounding = apd.RoundHalfUp
	return c
}()

// formatFunc is FORMAT(x, d[, locale]): x rounded half up to d decimals
// (at most 38) with the locale's thousands separators.
func formatFunc(f *expr.Call) (*expr.Expr, error) {
	if err := f.NArgs(2, 3); err != nil {
		return nil, err
	}
	return f.Mk(expr.TVarchar, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
		if vs[0].IsNull() || vs[1].IsNull() {
			return types.Null, nil
		}
		sep := separators["en_US"]
		if len(vs) == 3 && !vs[2].IsNull() {
			s, ok := separators[vs[2].String()]
			if !ok {
				return types.Null, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support FORMAT with the locale '%s'", vs[2].String())
			}
			sep = s
		}
		d := min(max(expr.SaturatingInt(vs[1]), 0), 38)
		x, ok := vs[0].ToDecimal()
		if !ok {
			x = apd.New(0, 0)
		}
		var r apd.Decimal
		if _, err := formatCtx.Quantize(&r, x, -int32(d)); err != nil {
			return types.Null, nil
		}
		text := r.Text('f')
		neg := strings.HasPrefix(text, "-")
		text = strings.TrimPrefix(text, "-")
		intPart, frac, _ := strings.Cut(text, ".")
		var b strings.Builder
		if neg && strings.Trim(text, "0.") != "" {
			b.WriteByte('-')
		}
		for i, ch := range intPart {
			if i > 0 && (len(intPart)-i)%3 == 0 {
				b.WriteString(sep[0])
			}
			b.WriteRune(ch)
		}
		if d > 0 {
			b.WriteString(sep[1] + frac)
		}
		return types.StringValue(b.String()), nil
	}), nil
}

// charFunc is CHAR(n, ... [USING charset]): each n as its big-endian
// bytes, NULLs skipped. The parser passes the charset as a last argument.
func charFunc(f *expr.Call) (*expr.Expr, error) {
	if err := f.NArgs(2, -1); err != nil {
		return nil, err
	}
	return f.Mk(expr.TVarchar, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
		var b []byte
		for _, v := range vs[:len(vs)-1] {
			if v.IsNull() {
				continue
			}
			n := uint32(expr.SaturatingInt(v))
			var chunk []byte
			for n > 0 {
				chunk = append([]byte{byte(n)}, chunk...)
				n >>= 8
			}
			if len(chunk) == 0 {
				chunk = []byte{0}
			}
			b = append(b, chunk...)
		}
		return types.StringValue(string(b)), nil
	}), nil
}

// quoteFunc is QUOTE(s): s in single quotes with \, ', NUL and ^Z
// escaped; NULL is the word NULL.
func quoteFunc(f *expr.Call) (*expr.Expr, error) {
	if err := f.NArgs(1, 1); err != nil {
		return nil, err
	}
	return f.Mk(expr.TVarchar, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
		if vs[0].IsNull() {
			return types.StringValue("NULL"), nil
		}
		var b strings.Builder
		b.WriteByte('\'')
		for _, ch := range []byte(vs[0].String()) {
			switch ch {
			case '\\', '\'':
				b.WriteByte('\\')
				b.WriteByte(ch)
			case 0:
				b.WriteString(`\0`)
			case 26:
				b.WriteString(`\Z`)
			default:
				b.WriteByte(ch)
			}
		}
		b.WriteByte('\'')
		return types.StringValue(b.String()), nil
	}), nil
}
