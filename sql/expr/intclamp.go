package expr

import (
	"math"

	"github.com/plrun/plrun/types"
)

// Where a SQL value becomes a Go int (a LIMIT, a SUBSTRING position, a
// REPEAT count, ROUND's places), MySQL reads it as a 64-bit integer that
// saturates instead of wrapping: 18446744073709551615 is "as large as
// possible", 1e30 likewise, -1e30 "as small as possible". Reading such a
// value with ToInt64 and ignoring its ok flag turned the largest unsigned
// value into -1 (a negative slice bound, a panic). These helpers are the
// only way those call sites read an integer argument.

// saturatingInt reads v as an int64, clamping values beyond the range to
// its ends. NULL and unreadable values are 0.
func saturatingInt(v types.Value) int64 {
	if n, ok := v.ToInt64(); ok {
		return n
	}
	switch v.K {
	case types.KindUint:
		return math.MaxInt64 // beyond MaxInt64, or ToInt64 would have said ok
	case types.KindNull:
		return 0
	}
	f := v.ToFloat()
	switch {
	case math.IsNaN(f):
		return 0
	case f >= math.MaxInt64:
		return math.MaxInt64
	case f <= math.MinInt64:
		return math.MinInt64
	}
	return int64(f)
}

// RowCountArg reads a LIMIT or OFFSET value: an unsigned count, clamped to
// what a Go int can index, as MySQL treats every value past the number of
// rows alike. A negative value (only a placeholder can give one) is not a
// count: ok is false.
func RowCountArg(v types.Value) (int, bool) {
	if v.K == types.KindUint {
		if u := v.Uint(); u > math.MaxInt {
			return math.MaxInt, true
		}
		return int(v.Uint()), true
	}
	n := saturatingInt(v)
	if n < 0 {
		return 0, false
	}
	return int(n), true
}
