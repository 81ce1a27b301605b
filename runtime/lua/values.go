package lua

import (
	"fmt"
	"math"
	"strconv"

	glua "github.com/yuin/gopher-lua"
)

// maxExact is 2^53: integers up to it in magnitude are exact in a float64.
const maxExact = 1 << 53

// toLua converts a Host value (nil, bool, int64, uint64, float64, string) to
// Lua. Integers beyond 2^53 become decimal strings so they stay exact.
func toLua(v any) glua.LValue {
	switch x := v.(type) {
	case nil:
		return glua.LNil
	case bool:
		return glua.LBool(x)
	case int64:
		if x >= -maxExact && x <= maxExact {
			return glua.LNumber(x)
		}
		return glua.LString(strconv.FormatInt(x, 10))
	case uint64:
		if x <= maxExact {
			return glua.LNumber(x)
		}
		return glua.LString(strconv.FormatUint(x, 10))
	case int:
		return toLua(int64(x))
	case float64:
		return glua.LNumber(x)
	case string:
		return glua.LString(x)
	case []byte:
		return glua.LString(x)
	}
	return glua.LString(fmt.Sprint(v))
}

// fromLua converts a Lua value to a Host value. Integral numbers that fit
// int64 become int64, other numbers float64. ok is false for tables,
// functions and other values SQL cannot hold.
func fromLua(v glua.LValue, null *glua.LUserData) (any, bool) {
	switch x := v.(type) {
	case *glua.LNilType:
		return nil, true
	case glua.LBool:
		return bool(x), true
	case glua.LNumber:
		f := float64(x)
		if f == math.Trunc(f) && f >= -9.223372036854775e18 && f <= 9.223372036854775e18 {
			return int64(f), true
		}
		return f, true
	case glua.LString:
		return string(x), true
	case *glua.LUserData:
		if x == null {
			return nil, true
		}
	}
	return nil, false
}
