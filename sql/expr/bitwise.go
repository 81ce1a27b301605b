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
		lu, err := BitOperand(c, l)
		if err != nil {
			return types.Null, err
		}
		ru, err := BitOperand(c, r)
		if err != nil {
			return types.Null, err
		}
		return types.UintValue(f(lu, ru)), nil
	}), true
}

// compileBitNeg compiles ~a.
func compileBitNeg(a *Expr) *Expr {
	return derived(func(c *Ctx) (types.Value, error) {
		v, err := a.Fn(c)
		if err != nil || v.IsNull() {
			return types.Null, err
		}
		u, err := BitOperand(c, v)
		return types.UintValue(^u), err
	}, TBitResult, a)
}

// BitOperand reads a non-NULL v as MariaDB's bitwise operators and
// BIT_COUNT read their operands: an integer as its 64 bits (a negative one
// in two's complement), a DOUBLE or DECIMAL rounded half away from zero,
// a string as the decimal number it starts with (warning 1292 when it is
// not a number whole). A number past the range saturates with warning
// 1916: to 2^64-1 above, to -2^63 below. In strict mode (INSERT, UPDATE)
// either warning is the statement's error, as in MariaDB.
func BitOperand(c *Ctx, v types.Value) (uint64, error) {
	switch v.K {
	case types.KindInt, types.KindUint:
		return uint64(v.I), nil
	case types.KindFloat:
		return bitFromFloat(c, v.F)
	case types.KindString:
		if !v.IsMember() && v.P != types.PHex && !types.IsNumberText(v.S) {
			if err := c.bitNote(sqlerr.ErTruncatedWrongValue, "Truncated incorrect DECIMAL value: '"+v.S+"'"); err != nil {
				return 0, err
			}
		}
	}
	d, ok := v.ToDecimal()
	if (!ok || d == nil) && v.K == types.KindString {
		// '12abc': ToDecimal refuses what is not a number whole; the
		// operators read its numeric prefix
		d, ok = types.FloatValue(v.ToFloat()).ToDecimal()
	}
	if !ok || d == nil {
		return 0, nil
	}
	text := d.Text('f')
	if v.K == types.KindString && !v.IsMember() && v.P != types.PHex {
		text = v.S
	}
	return bitFromDecimal(c, d, text)
}

// bitFromFloat rounds f half away from zero to 64 bits.
func bitFromFloat(c *Ctx, f float64) (uint64, error) {
	r := math.Round(f)
	switch {
	case math.IsNaN(r):
		return 0, nil
	case r >= 1<<64:
		return math.MaxUint64, c.bitOverflow(strconv.FormatFloat(f, 'f', -1, 64), "UNSIGNED INT")
	case r < math.MinInt64:
		return 1 << 63, c.bitOverflow(strconv.FormatFloat(f, 'f', -1, 64), "INT")
	case r < 0:
		return uint64(int64(r)), nil
	}
	return uint64(r), nil
}

var bitRoundCtx = func() *apd.Context {
	c := apd.BaseContext.WithPrecision(1000)
	c.Rounding = apd.RoundHalfUp
	return c
}()

// bitFromDecimal rounds d half away from zero to 64 bits; text is how a
// 1916 warning names the value.
func bitFromDecimal(c *Ctx, d *apd.Decimal, text string) (uint64, error) {
	var r apd.Decimal
	if _, err := bitRoundCtx.RoundToIntegralValue(&r, d); err != nil || r.Form != apd.Finite {
		return 0, nil
	}
	s := r.Text('f')
	if r.Negative {
		i, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 1 << 63, c.bitOverflow(text, "INT")
		}
		return uint64(i), nil
	}
	u, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return math.MaxUint64, c.bitOverflow(text, "UNSIGNED INT")
	}
	return u, nil
}

// bitOverflow is warning (strict mode: error) 1916 for a number past 64
// bits; text is the number as MariaDB names it.
func (c *Ctx) bitOverflow(text, to string) error {
	return c.bitNote(sqlerr.ErDataOverflow, "Got overflow when converting '"+text+"' to "+to+". Value truncated")
}

// bitNote is a conversion's warning, or in strict mode its error.
func (c *Ctx) bitNote(code uint16, msg string) error {
	if c.Strict {
		return sqlerr.New(code, "%s", msg)
	}
	c.warn(sqlerr.Note{Level: "Warning", Code: code, Message: msg})
	return nil
}

// BitNote is bitNote for the bit aggregates (sql/aggregate).
func (c *Ctx) BitNote(code uint16, msg string) error { return c.bitNote(code, msg) }
