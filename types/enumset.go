package types

import (
	"math/bits"
	"strings"
)

// ENUM and SET values are KindString values that also carry their number:
// an ENUM's member index (1-based, 0 for the '' of an invalid value), a
// SET's bitmask. In a string context they are their text; in a numeric
// context (e+0, e = 2, SUM) their number; two of them order by number, as
// ORDER BY an ENUM column does in MySQL.

// PEnum and PSet in Value.P mark ENUM and SET values; I holds the number.
const (
	PEnum = 0x81
	PSet  = 0x82
)

// EnumValue is member text at 1-based index i (0: the invalid ”).
func EnumValue(text string, i int) Value {
	return Value{K: KindString, S: text, I: int64(i), P: PEnum}
}

// SetValue is the SET value with members mask, text their names.
func SetValue(text string, mask uint64) Value {
	return Value{K: KindString, S: text, I: int64(mask), P: PSet}
}

// Elems are an ENUM's or SET's members.
func (t ColType) Elems() []string {
	if t.Members == "" {
		return nil
	}
	return strings.Split(t.Members[:len(t.Members)-1], "\x00")
}

// MembersOf is the Members text of elems.
func MembersOf(elems []string) string {
	var b strings.Builder
	for _, e := range elems {
		b.WriteString(e)
		b.WriteByte(0)
	}
	return b.String()
}

// isMember reports an ENUM or SET value: its number is I.
func (v Value) isMember() bool { return v.K == KindString && (v.P == PEnum || v.P == PSet) }

// IsMember reports an ENUM or SET value (a number as well as a string).
func (v Value) IsMember() bool { return v.isMember() }

// memberIndex is the 1-based index of s among elems, compared as the
// column's collation does (case and trailing spaces ignored); 0 if none.
func memberIndex(elems []string, s string) int {
	s = strings.TrimRight(s, " ")
	ascii := isASCII(s)
	for i, e := range elems {
		if ascii && isASCII(e) {
			// the common case, without CompareStrings' upper-casing copies
			if strings.EqualFold(e, s) {
				return i + 1
			}
			continue
		}
		if CompareStrings(e, s) == 0 {
			return i + 1
		}
	}
	return 0
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// coerceEnum stores v into an ENUM: a string names a member, a number is
// a member's index. Anything else is 1265, with ” (index 0) as what
// non-strict mode stores.
func coerceEnum(v Value, t ColType) (Value, error) {
	elems := t.Elems()
	bad := &CoerceError{Code: codeTruncated, Value: v.String(), Loose: EnumValue("", 0)}
	if v.K == KindString && !v.isMember() || v.K == KindTime {
		i := memberIndex(elems, v.String())
		if i == 0 {
			return v, bad
		}
		return EnumValue(elems[i-1], i), nil
	}
	if v.isMember() {
		if i := memberIndex(elems, v.S); i > 0 {
			return EnumValue(elems[i-1], i), nil
		}
		return v, bad
	}
	n, ok := v.ToInt64()
	if !ok || n < 1 || n > int64(len(elems)) {
		return v, bad
	}
	return EnumValue(elems[n-1], int(n)), nil
}

// coerceSet stores v into a SET: a string lists members separated by
// commas, a number is their bitmask. A name that is no member, or a bit
// past the last member, is 1265; non-strict mode keeps the members that
// are.
func coerceSet(v Value, t ColType) (Value, error) {
	elems := t.Elems()
	var mask uint64
	valid := true
	if v.K == KindString && !v.isMember() || v.K == KindTime {
		if s := v.String(); s != "" {
			for _, part := range strings.Split(s, ",") {
				i := memberIndex(elems, part)
				if i == 0 {
					valid = false
					continue
				}
				mask |= 1 << (i - 1)
			}
		}
	} else if v.isMember() {
		return coerceSet(StringValue(v.S), t)
	} else {
		n, ok := v.ToInt64()
		all := uint64(1)<<len(elems) - 1
		if len(elems) == 64 {
			all = ^uint64(0)
		}
		if !ok {
			valid = false
		}
		mask = uint64(n)
		if mask&^all != 0 {
			valid = false
			mask &= all
		}
	}
	out := SetValue(setText(elems, mask), mask)
	if !valid {
		return v, &CoerceError{Code: codeTruncated, Value: v.String(), Loose: out}
	}
	return out, nil
}

// setText is the members of mask in declaration order, joined by commas.
func setText(elems []string, mask uint64) string {
	var b strings.Builder
	for mask != 0 {
		i := bits.TrailingZeros64(mask)
		mask &^= 1 << i
		if i >= len(elems) {
			break
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(elems[i])
	}
	return b.String()
}

// MaxMemberLen is the longest member's length in characters: an ENUM's
// or SET's CHARACTER_MAXIMUM_LENGTH (a SET's is all members with commas).
func (t ColType) MaxMemberLen() int {
	n := 0
	for _, e := range t.Elems() {
		l := len([]rune(e))
		if t.Base == TSet {
			n += l
			continue
		}
		n = max(n, l)
	}
	if t.Base == TSet && len(t.Elems()) > 1 {
		n += len(t.Elems()) - 1
	}
	return n
}

// crossKind is how MariaDB copies an ENUM, SET or BIT value into a column
// of another kind: an ENUM or SET into a number is its number; a BIT into
// CHAR, VARCHAR, BINARY or VARBINARY is its number's digits (into TEXT or
// a BLOB its bytes, as MariaDB does).
func crossKind(v Value, t ColType) Value {
	switch {
	case t.IsNumeric():
		if n, ok := v.carriedNumber(); ok {
			return n
		}
	case v.IsBit() && (t.Base == TChar || t.Base == TVarchar || t.Base == TBinary || t.Base == TVarbinary):
		return UintValue(uint64(v.I))
	}
	return v
}
