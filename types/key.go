package types

import (
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"strings"
)

// Key encoding: AppendKey writes a value as bytes that sort, under
// bytes.Compare, as Compare orders values of one column type, and that are
// equal exactly when KeyString's are (so uniqueness and lookups keep their
// rules: 'a' = 'A ' under the default collation, 1.50 = 1.5, -0.0 = 0.0).
// Each component starts with a tag byte and delimits itself, so the
// concatenated keys of a tuple sort component by component and a prefix of
// the tuple encodes as a byte prefix of its key. No tag is 'u': a lock key
// "<table id>/u<index>/..." is a unique index's, "<table id>/<key>" a row's.
//
// The value's P (a DATETIME's digits, DATE, YEAR, BIT's width, a DECIMAL's
// scale) is not in the key: the column's type says it. Int and Uint share
// one encoding, so INT 5 and INT UNSIGNED 5 meet as they do in KeyString.
const (
	keyNull     = 0x05
	keyFloatNaN = 0x10 // before every float (Compare cannot order NaN)
	keyFloat    = 0x11 // IEEE bits, sign-flipped: -Inf .. +Inf
	keyIntNeg   = 0x20 // int64 < 0, big-endian two's complement
	keyIntPos   = 0x21 // 0 .. MaxUint64, big-endian
	keyDecNaN   = 0x28
	keyDecNInf  = 0x29
	keyDecNeg   = 0x2a // complemented exponent and digits
	keyDecZero  = 0x2b
	keyDecPos   = 0x2c // exponent, then digit pairs, then 0x00
	keyDecPInf  = 0x2d
	keyTime     = 0x30 // KindTime's I, sign-flipped big-endian
	keyDuration = 0x31 // KindDuration's I, the same
	keyMember   = 0x38 // an ENUM's index or SET's mask, as Compare orders them (signed)
	keyString   = 0x40 // folded text, 0x00 escaped, ended by 0x00 0x01
	keyBytes    = 0x41 // raw bytes, the same escaping
	keyOther    = 0x7f // a kind this file does not know, then the kind
)

// ErrBadKey is a key that AppendKey did not write (cut short, unknown tag,
// a bad escape).
var ErrBadKey = errors.New("types: malformed key")

// ErrKeyNotInvertible is DecodeKey's answer for a component whose value the
// key does not hold: folded strings (case and trailing spaces dropped),
// ENUM and SET values (their index only).
var ErrKeyNotInvertible = errors.New("types: key component is not invertible")

// AppendKey appends v's memcomparable key encoding to dst.
func AppendKey(dst []byte, v Value) []byte {
	switch v.K {
	case KindNull:
		return append(dst, keyNull)
	case KindInt:
		if v.I < 0 {
			return binary.BigEndian.AppendUint64(append(dst, keyIntNeg), uint64(v.I))
		}
		return binary.BigEndian.AppendUint64(append(dst, keyIntPos), uint64(v.I))
	case KindUint:
		return binary.BigEndian.AppendUint64(append(dst, keyIntPos), uint64(v.I))
	case KindFloat:
		return appendFloatKey(dst, v.F)
	case KindDecimal:
		return appendDecimalKey(dst, v.D)
	case KindString:
		switch {
		case v.IsBinary():
			return appendEscaped(append(dst, keyBytes), v.S, false)
		case v.isMember():
			return appendOrderedInt(append(dst, keyMember), v.I)
		}
		s := strings.TrimRight(v.S, " ")
		if !isASCII(s) {
			return appendEscaped(append(dst, keyString), foldString(s), false)
		}
		return appendEscaped(append(dst, keyString), s, true)
	case KindTime:
		return appendOrderedInt(append(dst, keyTime), v.I)
	case KindDuration:
		return appendOrderedInt(append(dst, keyDuration), v.I)
	}
	return append(dst, keyOther, byte(v.K))
}

// appendOrderedInt appends i big-endian with its sign bit flipped, so
// that negative numbers sort first.
func appendOrderedInt(dst []byte, i int64) []byte {
	return binary.BigEndian.AppendUint64(dst, uint64(i)^(1<<63))
}

func appendFloatKey(dst []byte, f float64) []byte {
	if math.IsNaN(f) {
		return append(dst, keyFloatNaN)
	}
	if f == 0 {
		f = 0 // -0 is 0, as Compare and KeyString have it
	}
	b := math.Float64bits(f)
	if b&(1<<63) != 0 {
		b = ^b
	} else {
		b |= 1 << 63
	}
	return binary.BigEndian.AppendUint64(append(dst, keyFloat), b)
}

// appendEscaped appends s with each 0x00 as 0x00 0xff, then 0x00 0x01:
// the end sorts before any byte that continues a longer string. upper
// folds ASCII letters to upper case on the way (s is ASCII then).
func appendEscaped(dst []byte, s string, upper bool) []byte {
	dst = slices.Grow(dst, len(s)+2)
	for {
		i := strings.IndexByte(s, 0)
		if i < 0 {
			break
		}
		dst = appendRun(dst, s[:i], upper)
		dst = append(dst, 0, 0xff)
		s = s[i+1:]
	}
	return append(appendRun(dst, s, upper), 0, 1)
}

// appendRun appends s, its ASCII lower-case letters in upper case if
// upper.
func appendRun(dst []byte, s string, upper bool) []byte {
	if !upper {
		return append(dst, s...)
	}
	n := len(dst)
	dst = append(dst, s...)
	run := dst[n:]
	for i, c := range run {
		if c-'a' < 26 {
			run[i] = c - ('a' - 'A')
		}
	}
	return dst
}

// SkipKey returns the length in bytes of the first encoded component of b.
func SkipKey(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, ErrBadKey
	}
	n := 0
	switch b[0] {
	case keyNull, keyFloatNaN, keyDecNaN, keyDecNInf, keyDecZero, keyDecPInf:
		n = 1
	case keyFloat, keyIntNeg, keyIntPos, keyTime, keyDuration, keyMember:
		n = 9
	case keyOther:
		n = 2
	case keyDecNeg, keyDecPos:
		return skipDecimal(b)
	case keyString, keyBytes:
		for i := 1; i+1 < len(b); i++ {
			if b[i] != 0 {
				continue
			}
			switch b[i+1] {
			case 1:
				return i + 2, nil
			case 0xff:
				i++
				continue
			}
			return 0, ErrBadKey
		}
		return 0, ErrBadKey
	default:
		return 0, ErrBadKey
	}
	if len(b) < n {
		return 0, ErrBadKey
	}
	return n, nil
}

// DecodeKey decodes the first component when the encoding is invertible
// (ints, uints, floats, times, durations, binary strings; decimals by
// value); it returns an error for folded strings. It returns the bytes after
// the component.
//
// What the key does not hold comes back in a fixed form for the column's
// type to restore (Coerce): an integer is KindInt when it fits in int64,
// else KindUint; a time or duration has P 6; a decimal is reduced (1.5,
// not 1.50); a byte string is PBinary.
func DecodeKey(b []byte) (Value, []byte, error) {
	n, err := SkipKey(b)
	if err != nil {
		return Null, b, err
	}
	rest := b[n:]
	switch b[0] {
	case keyNull:
		return Null, rest, nil
	case keyFloatNaN:
		return FloatValue(math.NaN()), rest, nil
	case keyFloat:
		u := binary.BigEndian.Uint64(b[1:])
		if u&(1<<63) != 0 {
			u &^= 1 << 63
		} else {
			u = ^u
		}
		return FloatValue(math.Float64frombits(u)), rest, nil
	case keyIntNeg:
		i := int64(binary.BigEndian.Uint64(b[1:]))
		if i >= 0 {
			return Null, b, ErrBadKey
		}
		return IntValue(i), rest, nil
	case keyIntPos:
		u := binary.BigEndian.Uint64(b[1:])
		if u > math.MaxInt64 {
			return UintValue(u), rest, nil
		}
		return IntValue(int64(u)), rest, nil
	case keyTime:
		return Value{K: KindTime, I: orderedInt(b[1:]), P: 6}, rest, nil
	case keyDuration:
		return Value{K: KindDuration, I: orderedInt(b[1:]), P: 6}, rest, nil
	case keyBytes:
		return BytesValue(unescape(b[1 : n-2])), rest, nil
	case keyDecNaN, keyDecNInf, keyDecZero, keyDecPInf, keyDecNeg, keyDecPos:
		d, err := decodeDecimal(b[:n])
		if err != nil {
			return Null, b, err
		}
		return DecimalValue(d), rest, nil
	}
	// keyString, keyMember, keyOther
	return Null, b, ErrKeyNotInvertible
}

// DecodeKeyShown decodes the first component for display (lock reports):
// as DecodeKey does, except that a folded string comes back as its folded
// text (upper case, no trailing spaces) and an ENUM or SET value as its
// number.
func DecodeKeyShown(b []byte) (Value, []byte, error) {
	v, rest, err := DecodeKey(b)
	if !errors.Is(err, ErrKeyNotInvertible) {
		return v, rest, err
	}
	n, _ := SkipKey(b) // DecodeKey checked it
	switch b[0] {
	case keyString:
		return StringValue(unescape(b[1 : n-2])), b[n:], nil
	case keyMember:
		return IntValue(orderedInt(b[1:])), b[n:], nil
	}
	return v, rest, err
}

func orderedInt(b []byte) int64 { return int64(binary.BigEndian.Uint64(b) ^ (1 << 63)) }

// unescape undoes appendEscaped's 0x00 0xff (b is checked by SkipKey).
func unescape(b []byte) string {
	var sb strings.Builder
	sb.Grow(len(b))
	for i := 0; i < len(b); i++ {
		sb.WriteByte(b[i])
		if b[i] == 0 {
			i++
		}
	}
	return sb.String()
}
