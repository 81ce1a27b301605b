package types

import (
	"encoding/binary"
	"math"
	"strconv"
	"strings"
)

// BIT(n) values are numbers (KindUint) in every context but one: as
// text (a result row, CONCAT) they are their n bits as big-endian bytes,
// as MySQL sends them. Value.P says so and how many bytes: pBit+1 ..
// pBit+8.

const pBit = 0x90

// BitValue is u as a value of a BIT(n) column.
func BitValue(u uint64, n int) Value {
	return Value{K: KindUint, I: int64(u), P: uint8(pBit + (max(n, 1)+7)/8)}
}

// IsBit reports a BIT value.
func (v Value) IsBit() bool { return v.K == KindUint && v.P > pBit && v.P <= pBit+8 }

// bitBytes is a BIT value's bytes, big-endian, as wide as its column.
func bitBytes(v Value) string {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(v.I))
	return string(b[8-int(v.P-pBit):])
}

// bitMax is BIT(n)'s largest value: n ones.
func bitMax(n int) uint64 {
	if n >= 64 {
		return math.MaxUint64
	}
	return 1<<n - 1
}

// coerceBit stores v into BIT(n): a string's bytes are a big-endian
// number (b'101', 0x05, 'a'), a number is rounded; a negative number or
// one past n bits is 1406, as MariaDB says it.
func coerceBit(v Value, t ColType) (Value, error) {
	tooLong := &CoerceError{Code: codeTooLong, Value: v.String()}
	var u uint64
	switch {
	case v.K == KindString && !v.isMember():
		s := strings.TrimLeft(v.S, "\x00")
		if len(s) > 8 {
			return v, tooLong
		}
		for i := 0; i < len(s); i++ {
			u = u<<8 | uint64(s[i])
		}
	case v.K == KindUint:
		u = uint64(v.I)
	default:
		iv, err := coerceInt(v, ColType{Base: TBigInt, Unsigned: true})
		if err != nil {
			return v, tooLong
		}
		u = uint64(iv.I)
	}
	if u > bitMax(t.Length) {
		return v, tooLong
	}
	return BitValue(u, t.Length), nil
}

// BitLiteral is a BIT value as SHOW CREATE TABLE writes a default:
// b'101'.
func BitLiteral(v Value) string {
	return "b'" + strconv.FormatUint(uint64(v.I), 2) + "'"
}
