package types

import (
	"math"
	"strings"
)

// A YEAR value is a KindInt: 0 (MySQL's zero year, printed 0000) or 1901
// to 2155. A YEAR column's values read with P = PYear so that they print
// with four digits (0000); stored values and keys never carry it.
const PYear = 8

// YearValue is a YEAR column's value n as it prints.
func YearValue(n int64) Value { return Value{K: KindInt, I: n, P: PYear} }

// coerceYear converts v into a YEAR as strict mode stores it. One- and
// two-digit numbers are years of 1970-2069 (the number 0 is the zero
// year, the text '0' or '00' is 2000); four digits are taken as they are.
func coerceYear(v Value) (Value, error) {
	var n int64
	twoDigits := false
	switch v.K {
	case KindTime:
		n = int64(v.Time().Year())
	case KindString:
		s := strings.TrimSpace(v.S)
		if !IsNumberText(s) {
			return v, &CoerceError{Code: codeBadValue, Value: v.S, What: "integer"}
		}
		f, _ := parseNumericPrefix(s)
		n = int64(math.Round(f))
		whole, _, _ := strings.Cut(strings.TrimLeft(s, "+"), ".")
		twoDigits = len(whole) <= 2 && n < 100
	case KindInt, KindUint, KindDecimal, KindFloat:
		r, ok := v.ToInt64()
		if !ok || v.K == KindUint && v.I < 0 {
			return v, &CoerceError{Code: codeOutOfRange, Value: v.String()}
		}
		n = r
	default:
		return v, &CoerceError{Code: codeBadValue, Value: v.String(), What: "integer"}
	}
	switch {
	case n == 0 && !twoDigits:
		return IntValue(0), nil
	case n >= 0 && n <= 69:
		return IntValue(2000 + n), nil
	case n >= 70 && n <= 99:
		return IntValue(1900 + n), nil
	case n >= 1901 && n <= 2155:
		return IntValue(n), nil
	}
	return v, &CoerceError{Code: codeOutOfRange, Value: v.String()}
}

// looseYear is non-strict mode's YEAR: out of range is the zero year
// (warning 1264); text is read for its numeric prefix (1265), or is the
// zero year when it has none (1366).
func looseYear(v Value, ce *CoerceError) (Value, uint16, error) {
	if ce.Code == codeOutOfRange {
		return IntValue(0), WarnOutOfRange, nil
	}
	if v.K != KindString {
		return v, 0, ce
	}
	prefix := numericPrefixText(v.S)
	if prefix == "" {
		return IntValue(0), WarnBadValue, nil
	}
	out, err := coerceYear(StringValue(prefix))
	if err != nil {
		return IntValue(0), WarnOutOfRange, nil
	}
	return out, WarnTruncated, nil
}
