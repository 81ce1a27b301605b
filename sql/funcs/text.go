package funcs

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"github.com/plrun/plrun/sql/acl"
	"github.com/plrun/plrun/sql/expr"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/plrun/plrun/types"
)

// textFunc compiles the string functions that search, cut, pad, encode
// and hash (string.go has CONCAT, SUBSTRING, TRIM and case).
func textFunc(f *expr.Call) (*expr.Expr, error) {
	// strict is a function NULL when any argument is.
	strict := func(min, max int, t types.ColType, fn func(c *expr.Ctx, vs []types.Value) types.Value) (*expr.Expr, error) {
		if err := f.NArgs(min, max); err != nil {
			return nil, err
		}
		return f.Mk(t, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			if expr.AnyNull(vs) {
				return types.Null, nil
			}
			return fn(c, vs), nil
		}), nil
	}
	str := types.StringValue
	num := func(n int) types.Value { return types.IntValue(int64(n)) }
	switch f.Name {
	case "lpad", "rpad":
		left := f.Name == "lpad"
		return strict(2, 3, expr.TVarchar, func(c *expr.Ctx, vs []types.Value) types.Value {
			s := []rune(vs[0].String())
			n := expr.SaturatingInt(vs[1])
			pad := []rune(" ")
			if len(vs) == 3 {
				pad = []rune(vs[2].String())
			}
			if n < 0 || c.OverPacket(f.Name, n) {
				return types.Null
			}
			if int64(len(s)) >= n {
				return str(string(s[:n]))
			}
			if len(pad) == 0 {
				return types.Null
			}
			fill := make([]rune, 0, n-int64(len(s)))
			for int64(len(fill)) < n-int64(len(s)) {
				fill = append(fill, pad[len(fill)%len(pad)])
			}
			if left {
				return str(string(fill) + string(s))
			}
			return str(string(s) + string(fill))
		})
	case "locate", "position", "instr":
		return strict(2, 3, expr.TBigInt, func(c *expr.Ctx, vs []types.Value) types.Value {
			sub, s := vs[0].String(), vs[1].String()
			if f.Name == "instr" {
				sub, s = s, sub
			}
			start := int64(1)
			if len(vs) == 3 {
				start = expr.SaturatingInt(vs[2])
			}
			r := []rune(s)
			if start < 1 || (start > int64(len(r)) && start != 1) {
				return num(0)
			}
			i := indexFold(string(r[start-1:]), sub)
			if i < 0 {
				return num(0)
			}
			return types.IntValue(start + int64(utf8.RuneCountInString(string(r[start-1:])[:i])))
		})
	case "substring_index":
		return strict(3, 3, expr.TVarchar, func(c *expr.Ctx, vs []types.Value) types.Value {
			s, delim, n := vs[0].String(), vs[1].String(), expr.SaturatingInt(vs[2])
			if delim == "" || n == 0 {
				return str("")
			}
			parts := strings.Split(s, delim)
			if n > 0 {
				if n >= int64(len(parts)) {
					return str(s)
				}
				return str(strings.Join(parts[:n], delim))
			}
			if n <= -int64(len(parts)) {
				return str(s)
			}
			return str(strings.Join(parts[int64(len(parts))+n:], delim))
		})
	case "replace":
		return strict(3, 3, expr.TVarchar, func(c *expr.Ctx, vs []types.Value) types.Value {
			from := vs[1].String()
			if from == "" {
				return str(vs[0].String())
			}
			return str(strings.ReplaceAll(vs[0].String(), from, vs[2].String()))
		})
	case "reverse":
		return strict(1, 1, expr.TVarchar, func(c *expr.Ctx, vs []types.Value) types.Value {
			r, bin := unitsOf(vs[0])
			for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
				r[i], r[j] = r[j], r[i]
			}
			return fromUnits(r, bin)
		})
	case "space":
		return strict(1, 1, expr.TVarchar, func(c *expr.Ctx, vs []types.Value) types.Value {
			n := expr.SaturatingInt(vs[0])
			if n <= 0 {
				return str("")
			}
			if c.OverPacket("space", n) {
				return types.Null
			}
			return str(strings.Repeat(" ", int(n)))
		})
	case "left", "right":
		return strict(2, 2, expr.TVarchar, func(c *expr.Ctx, vs []types.Value) types.Value {
			r, bin := unitsOf(vs[0])
			n := expr.SaturatingInt(vs[1])
			if n <= 0 {
				return fromUnits(nil, bin)
			}
			if n >= int64(len(r)) {
				return fromUnits(r, bin)
			}
			if f.Name == "left" {
				return fromUnits(r[:n], bin)
			}
			return fromUnits(r[int64(len(r))-n:], bin)
		})
	case "insert_func", "insert":
		return strict(4, 4, expr.TVarchar, func(c *expr.Ctx, vs []types.Value) types.Value {
			r := []rune(vs[0].String())
			pos, l := expr.SaturatingInt(vs[1]), expr.SaturatingInt(vs[2])
			if pos < 1 || pos > int64(len(r)) {
				return str(string(r))
			}
			end := int64(len(r))
			if l >= 0 && l < end-(pos-1) {
				end = pos - 1 + l
			}
			return str(string(r[:pos-1]) + vs[3].String() + string(r[end:]))
		})
	case "ascii":
		return strict(1, 1, expr.TBigInt, func(c *expr.Ctx, vs []types.Value) types.Value {
			s := vs[0].String()
			if s == "" {
				return num(0)
			}
			return num(int(s[0]))
		})
	case "ord":
		return strict(1, 1, expr.TBigInt, func(c *expr.Ctx, vs []types.Value) types.Value {
			s := vs[0].String()
			if s == "" {
				return num(0)
			}
			_, size := utf8.DecodeRuneInString(s)
			n := int64(0)
			for i := 0; i < size; i++ {
				n = n<<8 | int64(s[i])
			}
			return types.IntValue(n)
		})
	case "char_func":
		return charFunc(f)
	case "hex":
		return strict(1, 1, expr.TVarchar, func(c *expr.Ctx, vs []types.Value) types.Value {
			v := vs[0]
			if v.K == types.KindInt || v.K == types.KindUint {
				// exact: a float would round BIGINT UNSIGNED and BIT(64)
				return str(strings.ToUpper(strconv.FormatUint(uint64(v.I), 16)))
			}
			if v.IsNumeric() {
				u, _ := types.FloatValue(roundHalf(v.ToFloat())).ToInt64()
				return str(strings.ToUpper(strconv.FormatUint(uint64(u), 16)))
			}
			return str(strings.ToUpper(hex.EncodeToString([]byte(v.String()))))
		})
	case "unhex":
		return strict(1, 1, expr.TVarchar, func(c *expr.Ctx, vs []types.Value) types.Value {
			s := vs[0].String()
			if len(s)%2 == 1 {
				s = "0" + s
			}
			b, err := hex.DecodeString(s)
			if err != nil {
				return types.Null
			}
			return types.BytesValue(string(b))
		})
	case "to_base64":
		return strict(1, 1, expr.TVarchar, func(c *expr.Ctx, vs []types.Value) types.Value {
			enc := base64.StdEncoding.EncodeToString([]byte(vs[0].String()))
			// MySQL breaks the text every 76 characters
			var b strings.Builder
			for len(enc) > 76 {
				b.WriteString(enc[:76] + "\n")
				enc = enc[76:]
			}
			b.WriteString(enc)
			return str(b.String())
		})
	case "from_base64":
		return strict(1, 1, expr.TVarchar, func(c *expr.Ctx, vs []types.Value) types.Value {
			s := strings.Map(func(r rune) rune {
				if r == '\n' || r == '\r' || r == ' ' || r == '\t' {
					return -1
				}
				return r
			}, vs[0].String())
			b, err := base64.StdEncoding.DecodeString(s)
			if err != nil {
				if b, err = base64.RawStdEncoding.DecodeString(s); err != nil {
					return types.Null
				}
			}
			return str(string(b))
		})
	case "md5":
		return strict(1, 1, expr.TVarchar, func(c *expr.Ctx, vs []types.Value) types.Value {
			h := md5.Sum([]byte(vs[0].String()))
			return str(hex.EncodeToString(h[:]))
		})
	case "password":
		// MariaDB's PASSWORD(): the stored mysql_native_password hash
		// (acl.NativeHash); NULL and '' hash to ''.
		if err := f.NArgs(1, 1); err != nil {
			return nil, err
		}
		return f.Mk(expr.TVarchar, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			if expr.AnyNull(vs) {
				return str(""), nil
			}
			return str(acl.NativeHash(vs[0].String())), nil
		}), nil
	case "sha1", "sha":
		return strict(1, 1, expr.TVarchar, func(c *expr.Ctx, vs []types.Value) types.Value {
			h := sha1.Sum([]byte(vs[0].String()))
			return str(hex.EncodeToString(h[:]))
		})
	case "sha2":
		return strict(2, 2, expr.TVarchar, func(c *expr.Ctx, vs []types.Value) types.Value {
			b := []byte(vs[0].String())
			switch expr.SaturatingInt(vs[1]) {
			case 0, 256:
				h := sha256.Sum256(b)
				return str(hex.EncodeToString(h[:]))
			case 224:
				h := sha256.Sum224(b)
				return str(hex.EncodeToString(h[:]))
			case 384:
				h := sha512.Sum384(b)
				return str(hex.EncodeToString(h[:]))
			case 512:
				h := sha512.Sum512(b)
				return str(hex.EncodeToString(h[:]))
			}
			return types.Null
		})
	case "quote":
		return quoteFunc(f)
	}
	return listFunc(f)
}

func roundHalf(f float64) float64 {
	if f < 0 {
		return -roundHalf(-f)
	}
	return float64(int64(f + 0.5))
}

// indexFold is strings.Index under the default collation's case folding
// (utf8mb4_general_ci: LOCATE('B', 'abc') is 2).
func indexFold(s, sub string) int {
	if sub == "" {
		return 0
	}
	ls, lsub := strings.ToLower(s), strings.ToLower(sub)
	if len(ls) == len(s) && len(lsub) == len(sub) {
		return strings.Index(ls, lsub)
	}
	for i := range s {
		if len(s)-i >= len(sub) && strings.EqualFold(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}
