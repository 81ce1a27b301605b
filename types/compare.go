package types

import (
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"
)

// Compare orders two non-NULL values the way MySQL compares them: numbers
// numerically (exactly when either side is an integer or DECIMAL), a string
// against a number as numbers, strings case-insensitively with trailing
// spaces ignored, times by instant. NULLs sort first.
func Compare(a, b Value) int {
	if a.K == KindNull || b.K == KindNull {
		switch {
		case a.K == b.K:
			return 0
		case a.K == KindNull:
			return -1
		}
		return 1
	}
	if a.K == KindString && b.K == KindString {
		switch {
		case a.IsBinary() || b.IsBinary():
			// one byte string makes the comparison binary, as in MySQL
			return compareBytes(a.S, b.S)
		case a.isMember() && b.isMember():
			return cmpInt(a.I, b.I)
		}
		return CompareStrings(a.S, b.S)
	}
	if a.K == KindDuration || b.K == KindDuration {
		if da, dok := asDuration(a); dok {
			if db, dok := asDuration(b); dok {
				return cmpInt(da, db)
			}
		}
	}
	if a.K == KindTime || b.K == KindTime {
		ta, oka := asTime(a)
		tb, okb := asTime(b)
		if oka && okb {
			return cmpInt(ta, tb)
		}
	}
	switch {
	case a.K == KindInt && b.K == KindInt:
		return cmpInt(a.I, b.I)
	case a.K == KindUint && b.K == KindUint:
		return cmpUint(uint64(a.I), uint64(b.I))
	case a.K == KindInt && b.K == KindUint:
		if a.I < 0 {
			return -1
		}
		return cmpUint(uint64(a.I), uint64(b.I))
	case a.K == KindUint && b.K == KindInt:
		if b.I < 0 {
			return 1
		}
		return cmpUint(uint64(a.I), uint64(b.I))
	}
	if a.K == KindFloat || b.K == KindFloat || a.K == KindString || b.K == KindString {
		fa, fb := a.ToFloat(), b.ToFloat()
		switch {
		case fa < fb:
			return -1
		case fa > fb:
			return 1
		}
		return 0
	}
	da, _ := a.ToDecimal()
	db, _ := b.ToDecimal()
	return da.Cmp(db)
}

// asDuration reads a TIME, or text or a number compared with one, as
// microseconds.
func asDuration(v Value) (int64, bool) {
	switch v.K {
	case KindDuration:
		return v.I, true
	case KindString:
		if d, ok := ParseDuration(v.S); ok {
			return d, true
		}
		// out of range: as the nearest end, as MariaDB compares it
		d, ok := parseDurationUnbounded(v.S)
		return clampMicros(d, 6), ok
	case KindInt, KindUint, KindDecimal, KindFloat:
		d, err := coerceDuration(v, ColType{Base: TTime, Scale: 6})
		return d.I, err == nil
	}
	return 0, false
}

func asTime(v Value) (int64, bool) {
	switch v.K {
	case KindTime:
		return v.I, true
	case KindString:
		t, ok := ParseTime(v.S)
		if !ok {
			return 0, false
		}
		return TimeValue(t).I, true
	}
	return 0, false
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func cmpUint(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// CompareStrings is utf8mb4_general_ci-like: case-insensitive (by upper
// case), trailing spaces ignored (PAD SPACE).
func CompareStrings(a, b string) int {
	a = strings.TrimRight(a, " ")
	b = strings.TrimRight(b, " ")
	if a == b {
		return 0
	}
	return strings.Compare(foldString(a), foldString(b))
}

// foldString maps s to its comparison form. utf8mb4_general_ci compares
// by upper-case weights, so letters fold to upper case: that puts the
// symbols between 'Z' and 'a' ([ \ ] ^ _ `) after every letter, as MySQL
// sorts them.
func foldString(s string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 || (c >= 'a' && c <= 'z') {
			return strings.ToUpper(s)
		}
	}
	return s
}

// KeyString appends v's index-key encoding to dst: values that compare
// equal under Compare for the column's type encode equally. v must already
// be coerced to the column type.
func KeyString(dst []byte, v Value) []byte {
	switch v.K {
	case KindNull:
		return append(dst, 0)
	case KindString:
		if v.P == PBinary {
			return appendBytesKey(dst, v.S)
		}
		dst = append(dst, 's')
		dst = append(dst, foldString(strings.TrimRight(v.S, " "))...)
		return append(dst, 0, 0)
	case KindInt:
		dst = append(dst, 'n') // as any number, whatever P says
		return append(strconv.AppendInt(dst, v.I, 10), 0)
	case KindDecimal:
		var r apd.Decimal
		r.Reduce(v.D)
		if r.IsZero() {
			r.Negative, r.Exponent = false, 0
		}
		dst = append(dst, 'd')
		dst = append(dst, r.Text('e')...)
		return append(dst, 0)
	default:
		dst = append(dst, 'n')
		dst = append(dst, v.String()...)
		return append(dst, 0)
	}
}
