package aggregate

import (
	"math"
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// BIT_AND, BIT_OR and BIT_XOR fold their argument's 64 bits over a
// group: BIGINT UNSIGNED, never NULL (a group of no rows or only NULLs
// gives the operation's identity, 2^64-1 for BIT_AND, 0 else).
// MariaDB reads each value as a signed integer, unlike the bitwise
// operators (expr.BitOperand): a DOUBLE rounds half to even, a string is
// its integer prefix ('1.6' is 1, warning 1292 "INTEGER"), a DOUBLE past
// BIGINT saturates with warning 1916.

// IsBitAgg reports BIT_AND, BIT_OR and BIT_XOR.
func IsBitAgg(name string) bool {
	return name == "bit_and" || name == "bit_or" || name == "bit_xor"
}

// bitIdentity is what a bit aggregate of no rows is.
func bitIdentity(name string) types.Value {
	if name == "bit_and" {
		return types.UintValue(math.MaxUint64)
	}
	return types.UintValue(0)
}

// addBits folds v, already an integer (BitArg), into the group's bits.
func (a *Acc) addBits(name string, v types.Value) {
	u := uint64(v.I)
	if a.sum.IsNull() {
		a.sum = types.UintValue(u)
		return
	}
	acc := uint64(a.sum.I)
	switch name {
	case "bit_and":
		acc &= u
	case "bit_or":
		acc |= u
	default:
		acc ^= u
	}
	a.sum = types.UintValue(acc)
}

var halfUp = func() *apd.Context {
	c := apd.BaseContext.WithPrecision(1000)
	c.Rounding = apd.RoundHalfUp
	return c
}()

// BitArg reads an argument of a bit aggregate as MariaDB's val_int
// does (NULL stays NULL); warnings go to ec (nil: none), in strict mode
// they are the error. A window function reads its rows' arguments with
// it once each (sql/window).
func BitArg(ec *expr.Ctx, v types.Value) (types.Value, error) {
	if v.IsNull() {
		return v, nil
	}
	var first error
	warn := func(code uint16, msg string) {
		if ec != nil && first == nil {
			first = ec.BitNote(code, msg)
		}
	}
	overflow := func(text string) {
		warn(sqlerr.ErDataOverflow, "Got overflow when converting '"+text+"' to INT. Value truncated")
	}
	v = bitInt(v, warn, overflow)
	return v, first
}

func bitInt(v types.Value, warn func(code uint16, msg string), overflow func(text string)) types.Value {
	switch {
	case v.K == types.KindInt || v.K == types.KindUint:
		return types.IntValue(v.I)
	case v.K == types.KindFloat:
		r := math.RoundToEven(v.F)
		switch {
		case math.IsNaN(r):
			return types.IntValue(0)
		case r >= math.MaxInt64:
			overflow(types.FormatFloat(v.F))
			return types.IntValue(math.MaxInt64)
		case r < math.MinInt64:
			overflow(types.FormatFloat(v.F))
			return types.IntValue(math.MinInt64)
		}
		return types.IntValue(int64(r))
	case v.K == types.KindString && !v.IsMember() && v.P != types.PHex:
		t := strings.TrimLeft(v.S, " \t\n\r")
		end := 0
		if end < len(t) && (t[end] == '-' || t[end] == '+') {
			end++
		}
		for end < len(t) && t[end] >= '0' && t[end] <= '9' {
			end++
		}
		if strings.TrimRight(t[end:], " \t\n\r") != "" || end == 0 || t[end-1] < '0' || t[end-1] > '9' {
			warn(sqlerr.ErTruncatedWrongValue, "Truncated incorrect INTEGER value: '"+v.S+"'")
		}
		i, err := strconv.ParseInt(t[:end], 10, 64)
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			overflow(v.S)
		}
		return types.IntValue(i)
	}
	d, ok := v.ToDecimal()
	if !ok || d == nil {
		return types.IntValue(0)
	}
	var r apd.Decimal
	if _, err := halfUp.RoundToIntegralValue(&r, d); err != nil {
		return types.IntValue(0)
	}
	i, err := strconv.ParseInt(r.Text('f'), 10, 64)
	if err != nil {
		overflow(d.Text('f'))
		if r.Negative {
			return types.IntValue(math.MinInt64)
		}
		return types.IntValue(math.MaxInt64)
	}
	return types.IntValue(i)
}
