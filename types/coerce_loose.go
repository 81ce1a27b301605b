package types

import (
	"math"
	"strings"
	"unicode/utf8"

	"github.com/cockroachdb/apd/v3"
)

// Warnings non-strict mode gives when it adjusts a value to fit a column.
const (
	WarnOutOfRange = 1264 // clamped to the type's range
	WarnTruncated  = 1265 // cut to the column's length, or a string's numeric prefix taken
	WarnBadValue   = 1366 // not a number at all: stored as 0
)

// CoerceLoose is Coerce as MySQL does it without STRICT_TRANS_TABLES /
// STRICT_ALL_TABLES: a value that does not fit is adjusted — a number
// clamped into the type's range, a string cut to the column's length, the
// numeric prefix of a string taken ('12abc' is 12, 'abc' is 0) — and warn
// says which warning to give (0 when it fit). A value plrun cannot adjust
// (a bad date: DATETIME cannot hold MySQL's zero date) keeps Coerce's
// error.
func CoerceLoose(v Value, t ColType) (out Value, warn uint16, err error) {
	out, err = Coerce(v, t)
	if err == nil {
		return out, 0, nil
	}
	ce, ok := err.(*CoerceError)
	if !ok {
		return v, 0, err
	}
	if t.Base == TTime {
		out, w := clampDuration(v, t)
		return out, w, nil
	}
	if t.Base == TYear {
		return looseYear(v, ce)
	}
	switch ce.Code {
	case codeTooLong:
		s := ce.Value
		switch {
		case t.Base == TBit:
			// a BIT value that does not fit is its largest, as MariaDB
			// clamps it
			return BitValue(bitMax(t.Length), t.Length), WarnOutOfRange, nil
		case t.IsBinary():
			out, err := Coerce(BytesValue(s[:t.MaxBytes()]), t)
			return out, WarnTruncated, err
		case t.Base == TText:
			s = cutBytes(s, t.MaxBytes())
		default:
			s = cutRunes(s, t.Length)
		}
		return StringValue(s), WarnTruncated, nil
	case codeTruncated:
		// an ENUM or SET value that is not a member: '' or the members
		// that are
		return ce.Loose, WarnTruncated, nil
	case codeOutOfRange:
		return clampNumber(v, t), WarnOutOfRange, nil
	case codeBadValue:
		if v.K != KindString || !t.IsNumeric() {
			return v, 0, err
		}
		prefix := numericPrefixText(v.S)
		if prefix == "" {
			out, _, err := CoerceLoose(IntValue(0), t)
			return out, WarnBadValue, err
		}
		out, _, err := CoerceLoose(StringValue(prefix), t)
		return out, WarnTruncated, err
	}
	return v, 0, err
}

// IsNumeric reports an integer, DECIMAL, FLOAT or DOUBLE column type.
func (t ColType) IsNumeric() bool {
	return t.IsInteger() || t.Base == TDecimal || t.Base == TFloat || t.Base == TDouble
}

// clampNumber is v moved to the nearest end of t's range.
func clampNumber(v Value, t ColType) Value {
	negative := false
	switch v.K {
	case KindInt:
		negative = v.I < 0
	case KindString:
		negative = strings.HasPrefix(strings.TrimSpace(v.S), "-")
	default:
		negative = v.ToFloat() < 0
	}
	switch {
	case t.IsInteger():
		lo, hi := t.intRange()
		if negative {
			if t.Unsigned {
				return UintValue(0)
			}
			return IntValue(lo)
		}
		if t.Unsigned {
			return UintValue(hi)
		}
		return IntValue(int64(hi))
	case t.Base == TDecimal:
		if negative && t.Unsigned {
			d, _, _ := apd.NewFromString("0")
			return DecimalValue(d)
		}
		// the largest DECIMAL(p,s): p-s nines, a point, s nines
		digits := strings.Repeat("9", t.Length-t.Scale)
		if digits == "" {
			digits = "0"
		}
		if t.Scale > 0 {
			digits += "." + strings.Repeat("9", t.Scale)
		}
		if negative {
			digits = "-" + digits
		}
		d, _, _ := apd.NewFromString(digits)
		return DecimalValue(d)
	default: // FLOAT, DOUBLE
		if negative && t.Unsigned {
			return FloatValue(0)
		}
		if t.Base == TFloat {
			if negative {
				return FloatValue(-math.MaxFloat32)
			}
			return FloatValue(math.MaxFloat32)
		}
		if negative {
			return FloatValue(-math.MaxFloat64)
		}
		return FloatValue(math.MaxFloat64)
	}
}

// numericPrefixText is the longest prefix of s (after leading spaces) that
// reads as a number: sign, digits, a point and digits, an exponent.
func numericPrefixText(s string) string {
	t := strings.TrimLeft(s, " \t\n\r")
	i := 0
	if i < len(t) && (t[i] == '+' || t[i] == '-') {
		i++
	}
	digits := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
		digits++
	}
	if i < len(t) && t[i] == '.' {
		j := i + 1
		for j < len(t) && t[j] >= '0' && t[j] <= '9' {
			j++
			digits++
		}
		if digits > 0 {
			i = j
		}
	}
	if digits == 0 {
		return ""
	}
	if i < len(t) && (t[i] == 'e' || t[i] == 'E') {
		j := i + 1
		if j < len(t) && (t[j] == '+' || t[j] == '-') {
			j++
		}
		k := j
		for k < len(t) && t[k] >= '0' && t[k] <= '9' {
			k++
		}
		if k > j {
			i = k
		}
	}
	return strings.TrimSuffix(t[:i], ".")
}

func cutRunes(s string, n int) string {
	if n <= 0 {
		return ""
	}
	i := 0
	for k := range s {
		if i == n {
			return s[:k]
		}
		i++
	}
	return s
}

func cutBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}

// ImplicitDefault is the value non-strict mode stores for a NOT NULL
// column that gets no value or a NULL: 0 for numbers, the empty string
// for strings.
// ok is false for date and time types (MySQL's is the zero date, which
// plrun cannot hold).
func ImplicitDefault(t ColType) (v Value, ok bool) {
	switch {
	case t.IsNumeric():
		v, err := Coerce(IntValue(0), t)
		return v, err == nil
	case t.Base == TBit:
		return BitValue(0, t.Length), true
	case t.Base == TEnum:
		// MySQL's implicit default of a NOT NULL ENUM is its first member
		if len(t.Elems()) == 0 {
			return Null, false
		}
		return EnumValue(t.Elems()[0], 1), true
	case t.IsString():
		v, err := Coerce(StringValue(""), t)
		return v, err == nil
	case t.Base == TYear:
		return IntValue(0), true
	case t.Base == TTime:
		return DurationValue(0, t.Scale), true
	}
	return Null, false
}
