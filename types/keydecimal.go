package types

import (
	"math"

	"github.com/cockroachdb/apd/v3"
)

// A DECIMAL's key orders by value: a tag for the sign (or zero, or an
// infinity), then for a finite non-zero value 0.d1d2... x 10^E with d1 not
// zero and no trailing zeros (so 1.50 and 1.5 encode alike): E, then the
// digits two to a byte (pair+1: 1..100, a last odd digit paired with 0),
// then 0x00, which sorts before any pair. A larger E is a larger
// magnitude; at one E the digits decide, a prefix first. A negative
// value's bytes after its tag are complemented, reversing that order.
//
// E is one byte 128+E when it is from -119 to 118, else 0x01 (smaller) or
// 0xfe (larger) and E's 8 sign-flipped big-endian bytes. Complementing
// maps 0x01 and 0xfe onto each other, so SkipKey reads either sign alike.
const (
	decExpSmall = 0x01
	decExpLarge = 0xfe
	decExpMin   = -119
	decExpMax   = 118
)

func appendDecimalKey(dst []byte, d *apd.Decimal) []byte {
	switch {
	case d == nil || d.Form == apd.NaN || d.Form == apd.NaNSignaling:
		return append(dst, keyDecNaN)
	case d.Form == apd.Infinite && d.Negative:
		return append(dst, keyDecNInf)
	case d.Form == apd.Infinite:
		return append(dst, keyDecPInf)
	case d.Coeff.Sign() == 0:
		return append(dst, keyDecZero) // -0 too
	}
	var scratch [48]byte
	digits := d.Coeff.Append(scratch[:0], 10)
	if digits[0] == '-' {
		digits = digits[1:] // apd keeps the sign in Negative; be safe
	}
	e := int64(len(digits)) + int64(d.Exponent)
	for digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
	}
	tag := byte(keyDecPos)
	if d.Negative {
		tag = keyDecNeg
	}
	dst = append(dst, tag)
	body := len(dst)
	if e >= decExpMin && e <= decExpMax {
		dst = append(dst, byte(128+e))
	} else if e < 0 {
		dst = appendOrderedInt(append(dst, decExpSmall), e)
	} else {
		dst = appendOrderedInt(append(dst, decExpLarge), e)
	}
	for i := 0; i < len(digits); i += 2 {
		p := (digits[i] - '0') * 10
		if i+1 < len(digits) {
			p += digits[i+1] - '0'
		}
		dst = append(dst, p+1)
	}
	dst = append(dst, 0)
	if d.Negative {
		for i := body; i < len(dst); i++ {
			dst[i] = ^dst[i]
		}
	}
	return dst
}

// skipDecimal is SkipKey for keyDecNeg and keyDecPos: the exponent, at
// least one digit pair, the end.
func skipDecimal(b []byte) (int, error) {
	var flip byte
	if b[0] == keyDecNeg {
		flip = 0xff
	}
	if len(b) < 2 {
		return 0, ErrBadKey
	}
	i := 2
	switch c := b[1] ^ flip; {
	case c == decExpSmall || c == decExpLarge:
		i = 10
	case c < 128+decExpMin || c > 128+decExpMax:
		return 0, ErrBadKey
	}
	start := i
	for ; i < len(b); i++ {
		c := b[i] ^ flip
		if c == 0 {
			if i == start {
				return 0, ErrBadKey
			}
			return i + 1, nil
		}
		if c > 100 {
			return 0, ErrBadKey
		}
	}
	return 0, ErrBadKey
}

// decodeDecimal reads one decimal component, b exactly (SkipKey checked it).
func decodeDecimal(b []byte) (*apd.Decimal, error) {
	switch b[0] {
	case keyDecNaN:
		return &apd.Decimal{Form: apd.NaN}, nil
	case keyDecNInf:
		return &apd.Decimal{Form: apd.Infinite, Negative: true}, nil
	case keyDecPInf:
		return &apd.Decimal{Form: apd.Infinite}, nil
	case keyDecZero:
		return apd.New(0, 0), nil
	}
	var flip byte
	if b[0] == keyDecNeg {
		flip = 0xff
	}
	var e int64
	i := 2
	switch c := b[1] ^ flip; c {
	case decExpSmall, decExpLarge:
		var x [8]byte
		for j := range x {
			x[j] = b[2+j] ^ flip
		}
		e = orderedInt(x[:])
		i = 10
	default:
		e = int64(c) - 128
	}
	digits := make([]byte, 0, 2*(len(b)-i))
	for ; b[i]^flip != 0; i++ {
		p := b[i] ^ flip - 1
		digits = append(digits, '0'+p/10, '0'+p%10)
	}
	for len(digits) > 1 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
	}
	exp := e - int64(len(digits))
	if exp < math.MinInt32 || exp > math.MaxInt32 {
		return nil, ErrBadKey
	}
	d := new(apd.Decimal)
	if _, ok := d.Coeff.SetString(string(digits), 10); !ok {
		return nil, ErrBadKey
	}
	d.Exponent = int32(exp)
	d.Negative = b[0] == keyDecNeg
	return d, nil
}
