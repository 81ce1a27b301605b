package types

import (
	"fmt"
	"strings"
)

// Byte strings: BINARY, VARBINARY and the BLOBs hold bytes, not
// characters. Their values are KindString marked PBinary so that every
// comparison, key and codec keeps MySQL's binary semantics (no collation:
// case and trailing bytes count), whatever expression carries them.

// PBinary in Value.P marks a KindString value that is a byte string. The
// marks of strings and BIT values start at 0x80, clear of the time marks
// (0-7) and of any a later type adds below them.
const PBinary = 0x80

// BytesValue is s as a byte string.
func BytesValue(s string) Value { return Value{K: KindString, S: s, P: PBinary} }

// IsBinary reports whether v is a byte string.
func (v Value) IsBinary() bool { return v.K == KindString && (v.P == PBinary || v.P == PHex) }

// PHex in Value.P marks a hexadecimal or bit literal (0x41, b'101'): a
// byte string that in a numeric context is the number its bytes spell,
// big-endian (0x41 + 0 is 65, flags & 0x04 tests bit 2), as in MySQL.
const PHex = 0x83

// HexValue is a 0x.. or b'..' literal of bytes s.
func HexValue(s string) Value { return Value{K: KindString, S: s, P: PHex} }

// carriedNumber is the number a string value stands for in a numeric
// context when it is not its text: an ENUM's index, a SET's bitmask, a
// hex literal's bytes.
func (v Value) carriedNumber() (Value, bool) {
	switch {
	case v.K != KindString:
		return v, false
	case v.P == PEnum || v.P == PSet:
		return IntValue(v.I), true
	case v.P == PHex:
		var u uint64
		for i := 0; i < len(v.S); i++ {
			u = u<<8 | uint64(v.S[i]) // MySQL keeps the last 8 bytes
		}
		return UintValue(u), true
	}
	return v, false
}

// IsBinary reports BINARY, VARBINARY and the BLOB types.
func (t ColType) IsBinary() bool {
	return t.Base == TBinary || t.Base == TVarbinary || t.Base == TBlob
}

// The maximum byte lengths of the four TEXT and BLOB sizes.
const (
	TinyMax   = 255
	TextMax   = 65535
	MediumMax = 16777215
	LongMax   = 4294967295
)

// MaxBytes is the most bytes a value of t may hold: a BINARY/VARBINARY's
// length, a TEXT or BLOB's size (a TEXT column of an older catalog has
// Length 0: TEXT).
func (t ColType) MaxBytes() int {
	switch {
	case t.JSON:
		return LongMax
	case t.Base == TText || t.Base == TBlob:
		if t.Length <= 0 {
			return TextMax
		}
	}
	return t.Length
}

// SizedLOB is the TEXT or BLOB size that holds n bytes, as MySQL picks
// one for TEXT(n) and BLOB(n); n < 0 is the plain type.
func SizedLOB(n int) int {
	switch {
	case n < 0:
		return TextMax
	case n <= TinyMax:
		return TinyMax
	case n <= TextMax:
		return TextMax
	case n <= MediumMax:
		return MediumMax
	}
	return LongMax
}

// lobPrefix is the size word of a TEXT or BLOB type's name.
func lobPrefix(n int) string {
	switch {
	case n <= 0:
		return ""
	case n <= TinyMax:
		return "tiny"
	case n <= TextMax:
		return ""
	case n <= MediumMax:
		return "medium"
	}
	return "long"
}

// bytesSQL is SQL() for TEXT and the types after TBinary.
func (t ColType) bytesSQL() string {
	switch t.Base {
	case TText:
		return lobPrefix(t.Length) + "text"
	case TBlob:
		return lobPrefix(t.Length) + "blob"
	case TBinary, TVarbinary, TBit:
		return fmt.Sprintf("%s(%d)", baseNames[t.Base], t.Length)
	case TEnum, TSet:
		var b strings.Builder
		b.WriteString(baseNames[t.Base])
		b.WriteByte('(')
		for i, e := range t.Elems() {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(QuoteString(e))
		}
		b.WriteByte(')')
		return b.String()
	}
	return baseNames[t.Base]
}

// QuoteString is s as a SQL string literal as SHOW CREATE TABLE writes
// it: quotes doubled, backslashes escaped.
func QuoteString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `''`).Replace(s) + "'"
}

// coerceBytes stores v into a byte-string column: its bytes as they are
// (a number or date as it prints), BINARY(n) padded with 0x00 to n bytes,
// 1406 when longer than the column holds.
func coerceBytes(v Value, t ColType) (Value, error) {
	s := v.String()
	if len(s) > t.MaxBytes() {
		return v, &CoerceError{Code: codeTooLong, Value: s}
	}
	if t.Base == TBinary && len(s) < t.Length {
		s += strings.Repeat("\x00", t.Length-len(s))
	}
	return BytesValue(s), nil
}

// compareBytes orders byte strings: bytes as unsigned numbers, a prefix
// before what it prefixes.
func compareBytes(a, b string) int { return strings.Compare(a, b) }

// appendBytesKey appends a byte string's key: its bytes with 0x00 escaped
// as 0x00 0xff and ended by 0x00 0x00, so keys sort as the strings do.
func appendBytesKey(dst []byte, s string) []byte {
	dst = append(dst, 'b')
	for {
		i := strings.IndexByte(s, 0)
		if i < 0 {
			break
		}
		dst = append(dst, s[:i+1]...)
		dst = append(dst, 0xff)
		s = s[i+1:]
	}
	dst = append(dst, s...)
	return append(dst, 0, 0)
}

// PrefixOf is v cut to its first n characters (n bytes of a byte
// string), as a key on a column prefix holds it; other values unchanged.
func PrefixOf(v Value, n int) Value {
	if v.K != KindString {
		return v
	}
	if v.IsBinary() {
		if len(v.S) > n {
			v.S = v.S[:n]
		}
		return v
	}
	i := 0
	for k := range v.S {
		if i == n {
			v.S = v.S[:k]
			break
		}
		i++
	}
	return v
}
