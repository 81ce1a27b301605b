package funcs

import (
	"hash/crc32"
	"math"
	"strconv"
	"strings"

	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/types"
)

var tDouble = types.ColType{Base: types.TDouble}

// numericFunc compiles the numeric functions beyond math.go's ABS,
// ROUND, FLOOR, MOD and RAND: SIGN, powers and logarithms, trigonometry,
// CRC32 and base conversion. A result that is no real number (SQRT(-1),
// ASIN(2)) is NULL; LN and LOG of a number not above 0 are NULL with
// MariaDB's division-by-zero warning. PI() is not here: MariaDB prints
// it with six decimals (3.141593) yet computes with all of them, which a
// DOUBLE value cannot show; its name stays unknown (1305).
func numericFunc(f *expr.Call) (*expr.Expr, error) {
	float1 := func(fn func(x float64) float64) (*expr.Expr, error) {
		if err := f.NArgs(1, 1); err != nil {
			return nil, err
		}
		return f.Mk(tDouble, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			if vs[0].IsNull() {
				return types.Null, nil
			}
			return real(fn(vs[0].ToFloat())), nil
		}), nil
	}
	logOf := func(base float64) func(c *expr.Ctx, x float64) (types.Value, error) {
		return func(c *expr.Ctx, x float64) (types.Value, error) {
			if x <= 0 {
				return types.Null, c.DivisionByZero()
			}
			return real(math.Log(x) / math.Log(base)), nil
		}
	}
	switch f.Name {
	case "sign":
		if err := f.NArgs(1, 1); err != nil {
			return nil, err
		}
		return f.Mk(expr.TBigInt, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			if vs[0].IsNull() {
				return types.Null, nil
			}
			return types.IntValue(int64(types.Compare(vs[0], types.IntValue(0)))), nil
		}), nil
	case "pow", "power":
		if err := f.NArgs(2, 2); err != nil {
			return nil, err
		}
		return f.Mk(tDouble, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			if expr.AnyNull(vs) {
				return types.Null, nil
			}
			return real(math.Pow(vs[0].ToFloat(), vs[1].ToFloat())), nil
		}), nil
	case "sqrt":
		return float1(math.Sqrt)
	case "exp":
		return float1(math.Exp)
	case "sin":
		return float1(math.Sin)
	case "cos":
		return float1(math.Cos)
	case "tan":
		return float1(math.Tan)
	case "asin":
		return float1(math.Asin)
	case "acos":
		return float1(math.Acos)
	case "cot":
		return float1(func(x float64) float64 { return 1 / math.Tan(x) })
	case "degrees":
		return float1(func(x float64) float64 { return x * 180 / math.Pi })
	case "radians":
		return float1(func(x float64) float64 { return x * math.Pi / 180 })
	case "atan", "atan2":
		if err := f.NArgs(1, 2); err != nil {
			return nil, err
		}
		return f.Mk(tDouble, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			if expr.AnyNull(vs) {
				return types.Null, nil
			}
			if len(vs) == 2 {
				return real(math.Atan2(vs[0].ToFloat(), vs[1].ToFloat())), nil
			}
			return real(math.Atan(vs[0].ToFloat())), nil
		}), nil
	case "ln", "log", "log2", "log10":
		if err := f.NArgs(1, 2); err != nil {
			return nil, err
		}
		if f.Name != "log" && len(f.Args) == 2 {
			return nil, f.NArgs(1, 1)
		}
		base := map[string]float64{"ln": math.E, "log": math.E, "log2": 2, "log10": 10}[f.Name]
		return f.Mk(tDouble, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			if expr.AnyNull(vs) {
				return types.Null, nil
			}
			if len(vs) == 2 { // LOG(b, x)
				b := vs[0].ToFloat()
				if b <= 0 || b == 1 {
					return types.Null, c.DivisionByZero()
				}
				return logOf(b)(c, vs[1].ToFloat())
			}
			return logOf(base)(c, vs[0].ToFloat())
		}), nil
	case "crc32":
		if err := f.NArgs(1, 1); err != nil {
			return nil, err
		}
		return f.Mk(types.ColType{Base: types.TBigInt, Unsigned: true}, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			if vs[0].IsNull() {
				return types.Null, nil
			}
			return types.UintValue(uint64(crc32.ChecksumIEEE([]byte(vs[0].String())))), nil
		}), nil
	case "conv", "bin", "oct":
		return convFunc(f)
	}
	return nil, nil
}

// real is x as a DOUBLE result; NaN and infinities are NULL.
func real(x float64) types.Value {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return types.Null
	}
	return types.FloatValue(x)
}

// convFunc is CONV(n, from, to) and BIN(n) = CONV(n, 10, 2), OCT(n) =
// CONV(n, 10, 8): the leading digits of n in base from (2-36), as a
// 64-bit unsigned number (a negative base to makes it signed), in base to.
func convFunc(f *expr.Call) (*expr.Expr, error) {
	from, to := 10, 2
	switch f.Name {
	case "conv":
		if err := f.NArgs(3, 3); err != nil {
			return nil, err
		}
	case "bin":
		if err := f.NArgs(1, 1); err != nil {
			return nil, err
		}
	default:
		if err := f.NArgs(1, 1); err != nil {
			return nil, err
		}
		to = 8
	}
	return f.Mk(expr.TVarchar, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
		if expr.AnyNull(vs) {
			return types.Null, nil
		}
		fb, tb := from, to
		if len(vs) == 3 {
			fb, tb = int(expr.SaturatingInt(vs[1])), int(expr.SaturatingInt(vs[2]))
		}
		signedOut := tb < 0
		fb, tb = abs(fb), abs(tb)
		if fb < 2 || fb > 36 || tb < 2 || tb > 36 {
			return types.Null, nil
		}
		s := strings.TrimSpace(vs[0].String())
		if vs[0].IsBit() {
			s = strconv.FormatUint(vs[0].Uint(), 10) // its number, not its bytes
		}
		neg := strings.HasPrefix(s, "-")
		s = strings.TrimPrefix(s, "-")
		var n uint64
		for _, ch := range strings.ToLower(s) {
			d := strings.IndexRune("0123456789abcdefghijklmnopqrstuvwxyz", ch)
			if d < 0 || d >= fb {
				break
			}
			if n > (math.MaxUint64-uint64(d))/uint64(fb) {
				n = math.MaxUint64
				break
			}
			n = n*uint64(fb) + uint64(d)
		}
		if neg {
			n = -n
		}
		if signedOut && int64(n) < 0 {
			return types.StringValue("-" + strings.ToUpper(strconv.FormatUint(-n, tb))), nil
		}
		return types.StringValue(strings.ToUpper(strconv.FormatUint(n, tb))), nil
	}), nil
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}
