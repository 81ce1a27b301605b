package types

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/cockroachdb/apd/v3"
)

// Op is a binary arithmetic operator.
type Op byte

const (
	OpAdd    Op = '+'
	OpSub    Op = '-'
	OpMul    Op = '*'
	OpDiv    Op = '/'
	OpMod    Op = '%'
	OpIntDiv Op = 'd'
)

// RangeError is MySQL's 1690 "value is out of range": What is "BIGINT" or
// "BIGINT UNSIGNED" or "DECIMAL"; the sql layer adds the expression text.
type RangeError struct{ What string }

func (e *RangeError) Error() string { return e.What + " value is out of range" }

// Arith computes a op b with MySQL's typing rules. A NULL operand gives
// NULL. Division by zero gives NULL.
func Arith(op Op, a, b Value) (Value, error) {
	if a.K == KindNull || b.K == KindNull {
		return Null, nil
	}
	a, b = numeric(a), numeric(b)
	if a.K == KindFloat || b.K == KindFloat {
		return floatArith(op, a.ToFloat(), b.ToFloat())
	}
	if op == OpDiv || a.K == KindDecimal || b.K == KindDecimal {
		return decimalArith(op, a, b)
	}
	if op == OpIntDiv {
		if b.I == 0 {
			return Null, nil
		}
	}
	if a.K == KindUint || b.K == KindUint {
		return uintArith(op, a, b)
	}
	return intArith(op, a.I, b.I)
}

// AsNumber is v as arithmetic reads it (numeric).
func AsNumber(v Value) Value { return numeric(v) }

// numeric turns strings and times into numbers for arithmetic.
func numeric(v Value) Value {
	switch v.K {
	case KindString:
		if n, ok := v.carriedNumber(); ok {
			return n // an ENUM's index, a SET's bitmask, a hex literal's number
		}
		f, _ := parseNumericPrefix(v.S)
		return FloatValue(f)
	case KindTime:
		n, _ := v.ToInt64()
		return IntValue(n)
	case KindDuration:
		if v.P == 0 {
			n, _ := v.ToInt64()
			return IntValue(n)
		}
		d, _ := v.ToDecimal()
		return DecimalValue(d)
	}
	return v
}

func intArith(op Op, a, b int64) (Value, error) {
	switch op {
	case OpAdd:
		r := a + b
		if (r > a) != (b > 0) {
			return Null, &RangeError{"BIGINT"}
		}
		return IntValue(r), nil
	case OpSub:
		r := a - b
		if (r < a) != (b > 0) {
			return Null, &RangeError{"BIGINT"}
		}
		return IntValue(r), nil
	case OpMul:
		if a == 0 || b == 0 {
			return IntValue(0), nil
		}
		r := a * b
		if r/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
			return Null, &RangeError{"BIGINT"}
		}
		return IntValue(r), nil
	case OpMod:
		if b == 0 {
			return Null, nil
		}
		if b == -1 {
			return IntValue(0), nil
		}
		return IntValue(a % b), nil
	case OpIntDiv:
		if b == 0 {
			return Null, nil
		}
		if a == math.MinInt64 && b == -1 {
			return Null, &RangeError{"BIGINT"}
		}
		return IntValue(a / b), nil
	}
	return Null, fmt.Errorf("unknown operator %c", op)
}

// uintArith: if either operand is UNSIGNED the result is UNSIGNED, and a
// negative result is an error (MySQL without NO_UNSIGNED_SUBTRACTION).
func uintArith(op Op, a, b Value) (Value, error) {
	neg := func(v Value) bool { return v.K == KindInt && v.I < 0 }
	abs := func(v Value) uint64 {
		if neg(v) {
			return uint64(-v.I)
		}
		return uint64(v.I)
	}
	ua, ub := abs(a), abs(b)
	na, nb := neg(a), neg(b)
	switch op {
	case OpAdd, OpSub:
		if op == OpSub {
			nb = !nb
		}
		switch {
		case !na && !nb:
			s, c := bits.Add64(ua, ub, 0)
			if c != 0 {
				return Null, &RangeError{"BIGINT UNSIGNED"}
			}
			return UintValue(s), nil
		case na && nb:
			return Null, &RangeError{"BIGINT UNSIGNED"}
		case na:
			if ua > ub {
				return Null, &RangeError{"BIGINT UNSIGNED"}
			}
			return UintValue(ub - ua), nil
		default:
			if ub > ua {
				return Null, &RangeError{"BIGINT UNSIGNED"}
			}
			return UintValue(ua - ub), nil
		}
	case OpMul:
		if ua == 0 || ub == 0 {
			return UintValue(0), nil
		}
		if na != nb {
			return Null, &RangeError{"BIGINT UNSIGNED"}
		}
		hi, lo := bits.Mul64(ua, ub)
		if hi != 0 {
			return Null, &RangeError{"BIGINT UNSIGNED"}
		}
		return UintValue(lo), nil
	case OpMod:
		if ub == 0 {
			return Null, nil
		}
		return UintValue(ua % ub), nil
	case OpIntDiv:
		if ub == 0 {
			return Null, nil
		}
		if na != nb && ua/ub != 0 {
			return Null, &RangeError{"BIGINT UNSIGNED"}
		}
		return UintValue(ua / ub), nil
	}
	return Null, fmt.Errorf("unknown operator %c", op)
}

func floatArith(op Op, a, b float64) (Value, error) {
	var r float64
	switch op {
	case OpAdd:
		r = a + b
	case OpSub:
		r = a - b
	case OpMul:
		r = a * b
	case OpDiv:
		if b == 0 {
			return Null, nil
		}
		r = a / b
	case OpMod:
		if b == 0 {
			return Null, nil
		}
		r = math.Mod(a, b)
	case OpIntDiv:
		if b == 0 {
			return Null, nil
		}
		r = math.Trunc(a / b)
		if r > math.MaxInt64 || r < math.MinInt64 {
			return Null, &RangeError{"BIGINT"}
		}
		return IntValue(int64(r)), nil
	}
	if math.IsInf(r, 0) || math.IsNaN(r) {
		return Null, &RangeError{"DOUBLE"}
	}
	return FloatValue(r), nil
}

// DivPrecisionIncrement is MySQL's div_precision_increment default.
const DivPrecisionIncrement = 4

func decimalArith(op Op, a, b Value) (Value, error) {
	da, _ := a.ToDecimal()
	db, _ := b.ToDecimal()
	r := new(apd.Decimal)
	var err error
	switch op {
	case OpAdd:
		_, err = roundCtx.Add(r, da, db)
	case OpSub:
		_, err = roundCtx.Sub(r, da, db)
	case OpMul:
		_, err = roundCtx.Mul(r, da, db)
	case OpDiv:
		if db.IsZero() {
			return Null, nil
		}
		if _, err = roundCtx.Quo(r, da, db); err == nil {
			scale := -da.Exponent
			if scale < 0 {
				scale = 0
			}
			_, err = roundCtx.Quantize(r, r, -(scale + DivPrecisionIncrement))
		}
	case OpMod:
		if db.IsZero() {
			return Null, nil
		}
		_, err = roundCtx.Rem(r, da, db)
	case OpIntDiv:
		if db.IsZero() {
			return Null, nil
		}
		if _, err = roundCtx.QuoInteger(r, da, db); err == nil {
			i, e := r.Int64()
			if e != nil {
				return Null, &RangeError{"BIGINT"}
			}
			return IntValue(i), nil
		}
	}
	if err != nil {
		return Null, &RangeError{"DECIMAL"}
	}
	if r.NumDigits() > 65 {
		return Null, &RangeError{"DECIMAL"}
	}
	if r.IsZero() {
		r.Negative = false // MySQL has no negative zero
	}
	return DecimalValue(r), nil
}

// Negate is unary minus.
func Negate(v Value) (Value, error) {
	switch v.K {
	case KindNull:
		return v, nil
	case KindInt:
		if v.I == math.MinInt64 {
			return Null, &RangeError{"BIGINT"}
		}
		return IntValue(-v.I), nil
	case KindUint:
		if uint64(v.I) > 1<<63 {
			return Null, &RangeError{"BIGINT"}
		}
		return IntValue(-v.I), nil
	case KindFloat:
		return FloatValue(-v.F), nil
	case KindDecimal:
		r := new(apd.Decimal).Neg(v.D)
		if r.IsZero() {
			r.Negative = false
		}
		return DecimalValue(r), nil
	}
	return Negate(numeric(v))
}
