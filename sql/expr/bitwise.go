package expr

import (
	"math"
	"strconv"

	"github.com/cockroachdb/apd/v3"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// MySQL's bitwise operators (& | ^ << >> ~) work on 64-bit unsigned
// integers: each operand is read as MariaDB's bit functions read it
// (BitOperand), NULL in gives NULL out, and the result is BIGINT
// UNSIGNED. A shift by 64 or more is 0 (Go's shift already gives that
// for an unsigned count).

// TBitResult is the type of a bitwise operator's result, as MariaDB sends
// it: BIGINT UNSIGNED, 21 wide.
var TBitResult = types.ColType{Base: types.TBigInt, Unsigned: true, Length: 21}

var bitOps = map[opcode.Op]func(l, r uint64) uint64{
	opcode.And:        func(l, r uint64) uint64 { return l & r },
	opcode.Or:         func(l, r uint64) uint64 { return l | r },
	opcode.Xor:        func(l, r uint64) uint64 { return l ^ r },
	opcode.LeftShift:  func(l, r uint64) uint64 { return l << r },
	opcode.RightShift: func(l, r uint64) uint64 { return l >> r },
}

// compileBitBinary compiles a & b, a | b, a ^ b, a << b, a >> b; ok is
// false for any other operator.
func compileBitBinary(op opcode.Op, a, b *Expr) (*Expr, bool) {
	f, ok := bitOps[op]
	if !ok {
		return nil, false
	}
	return strict2(a, b, TBitResult, func(c *Ctx, l, r types.Value) (types.Value, error) {
		if l.IsNull() || r.IsNull() {
			return types.Null, nil
		}
		return types.UintValue(f(BitOperand(c, l), BitOperand(c, r))), nil
	}), true
}

// compileBitNeg compiles ~a.
func compileBitNeg(a *Expr) *Expr {
	return derived(func(c *Ctx) (types.Value, error) {
		v, err := a.Fn(c)
		if err != nil || v.IsNull() {
			return types.Null, err
		}
		return types.UintValue(^BitOperand(c, v)), nil
	}, TBitResult, a)
}

// BitOperand reads a non-NULL v as MariaDB's bitwise operators and
// BIT_COUNT read their operands: an integer as its 64 bits (a negative one
// in two's complement), a DOUBLE or DECIMAL rounded half away from zero,
// a string as the decimal number it starts with (warning 1292 when it is
// not a number whole). A number past the range saturates with warning
// 1916: to 2^64-1 above, to -2^63 below.
func BitOperand(c *Ctx, v types.Value) uint64 {
	switch v.K {
	case types.KindInt, types.KindUint:
		return uint64(v.I)
	case types.KindFloat:
		return bitFromFloat(c, v.F)
	case types.KindString:
		if !v.IsMember() && v.P != types.PHex && !types.IsNumberText(v.S) {
			c.warn(sqlerr.Note{Level: "Warning", Code: sqlerr.ErTruncatedWrongValue,
				Message: "Truncated incorrect DECIMAL value: '" + v.S + "'"})
		}
	}
	d, ok := v.ToDecimal()
	if !ok || d == nil {
		return 0
	}
	text := d.Text('f')
	if v.K == types.KindString && !v.IsMember() && v.P != types.PHex {
		text = v.S
	}
	return bitFromDecimal(c, d, text)
}

// bitFromFloat rounds f half away from zero to 64 bits.
func bitFromFloat(c *Ctx, f float64) uint64 {
	r := math.Round(f)
	switch {
	case math.IsNaN(r):
		return 0
	case r >= 1<<64:
		c.bitOverflow(strconv.FormatFloat(f, 'f', -1, 64), "UNSIGNED INT")
		return math.MaxUint64
	case r < math.MinInt64:
		c.bitOverflow(strconv.FormatFloat(f, 'f', -1, 64), "INT")
		return 1 << 63
	case r < 0:
		return uint64(int64(r))
	}
	return uint64(r)
}

var bitRoundCtx = func() *apd.Context {
	c := apd.BaseContext.WithPrecision(1000)
	c.Rounding = apd.RoundHalfUp
	return c
}()

// bitFromDecimal rounds d half away from zero to 64 bits; text is how a
// 1916 warning names the value.
func bitFromDecimal(c *Ctx, d *apd.Decimal, text string) uint64 {
	var r apd.Decimal
	if _, err := bitRoundCtx.RoundToIntegralValue(&r, d); err != nil || r.Form != apd.Finite {
		return 0
	}
	s := r.Text('f')
	if r.Negative {
		i, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			c.bitOverflow(text, "INT")
			return 1 << 63
		}
		return uint64(i)
	}
	u, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		c.bitOverflow(text, "UNSIGNED INT")
		return math.MaxUint64
	}
	return u
}

func (c *Ctx) bitOverflow(text, to string) {
	c.warn(sqlerr.Note{Level: "Warning", Code: sqlerr.ErDataOverflow,
		Message: "Got overflow when converting '" + text + "' to " + to + ". Value truncated"})
}
