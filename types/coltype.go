package types

import (
	"fmt"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cockroachdb/apd/v3"
)

// Base is a column's storage class.
type Base uint8

const (
	TTinyInt Base = iota + 1
	TSmallInt
	TMediumInt
	TInt
	TBigInt
	TDecimal
	TFloat
	TDouble
	TChar
	TVarchar
	TText
	TDatetime
	TTimestamp
	TDate
	// TTime is a TIME column (KindDuration values, duration.go) and
	// the type of TIME results (TIMEDIFF, CURTIME, TIME()), whose values are
	// the text MySQL prints.
	TTime
	// The byte-string types (bytestr.go): values are KindString marked
	// PBinary, compared byte by byte. Length is BINARY/VARBINARY's byte
	// length, a BLOB's maximum (255, 65535, 16777215, 4294967295).
	TBinary
	TVarbinary
	TBlob
	// ENUM and SET (enumset.go): Members lists the members.
	TEnum
	TSet
	// TBit is BIT(n) (bit.go): Length is n, values are KindUint.
	TBit
	// TYear is YEAR (YEAR(4)): KindInt values, year.go.
	TYear
)

var baseNames = map[Base]string{
	TTinyInt: "tinyint", TSmallInt: "smallint", TMediumInt: "mediumint", TInt: "int", TBigInt: "bigint",
	TDecimal: "decimal", TFloat: "float", TDouble: "double", TChar: "char", TVarchar: "varchar",
	TText: "text", TDatetime: "datetime", TTimestamp: "timestamp", TDate: "date", TTime: "time",
	TBinary: "binary", TVarbinary: "varbinary", TBlob: "blob", TEnum: "enum", TSet: "set", TBit: "bit",
	TYear: "year",
}

// ColType is a column's declared type.
type ColType struct {
	Base     Base
	Unsigned bool
	// Length is the character length of CHAR/VARCHAR (TEXT: 65535), the
	// display width of integers (0 = default), the precision of DECIMAL.
	Length int
	Scale  int // DECIMAL scale; fractional seconds of DATETIME
	// JSON marks a JSON column (MariaDB: LONGTEXT that must be valid
	// JSON) or a JSON function's result: JSON_OBJECT and the like take
	// its text as JSON, not as a string.
	JSON bool `json:",omitempty"`
	// Members are an ENUM's or SET's members as declared, each ended by
	// a NUL (a string keeps ColType comparable with ==); see Elems.
	Members string `json:",omitempty"`
}

// IsInteger reports whether t is one of the integer types.
func (t ColType) IsInteger() bool { return t.Base >= TTinyInt && t.Base <= TBigInt }

// IsString reports whether t holds characters.
func (t ColType) IsString() bool {
	switch t.Base {
	case TChar, TVarchar, TText, TBinary, TVarbinary, TBlob, TEnum, TSet:
		return true
	}
	return false
}

// SQL prints the type as SHOW CREATE TABLE does.
func (t ColType) SQL() string {
	name := baseNames[t.Base]
	var s string
	switch {
	case t.IsInteger():
		w := t.Length
		if w <= 0 {
			// MariaDB shows the default display width
			w = defaultIntWidth(t.Base, t.Unsigned)
		}
		s = fmt.Sprintf("%s(%d)", name, w)
	case t.Base == TDecimal:
		s = fmt.Sprintf("decimal(%d,%d)", t.Length, t.Scale)
	case t.Base == TChar, t.Base == TVarchar:
		s = fmt.Sprintf("%s(%d)", name, t.Length)
	case t.JSON:
		s = "longtext"
	case t.Base == TYear:
		s = "year(4)"
	case t.Base == TText, t.Base >= TBinary && t.Base <= TBit:
		s = t.bytesSQL()
	case t.Base == TDatetime, t.Base == TTimestamp, t.Base == TTime:
		s = name
		if t.Scale > 0 {
			s = fmt.Sprintf("%s(%d)", name, t.Scale)
		}
	default:
		s = name
	}
	if t.Unsigned {
		s += " unsigned"
	}
	return s
}

// defaultIntWidth is the display width MariaDB gives an integer column
// declared without one: the length of its widest value.
func defaultIntWidth(b Base, unsigned bool) int {
	w := map[Base]int{TTinyInt: 4, TSmallInt: 6, TMediumInt: 9, TInt: 11, TBigInt: 20}[b]
	if unsigned && b != TBigInt {
		w--
	}
	return w
}

// intRange returns the bounds of an integer type.
func (t ColType) intRange() (min int64, max uint64) {
	var bits uint
	switch t.Base {
	case TTinyInt:
		bits = 8
	case TSmallInt:
		bits = 16
	case TMediumInt:
		bits = 24
	case TInt:
		bits = 32
	default:
		bits = 64
	}
	if t.Unsigned {
		if bits == 64 {
			return 0, math.MaxUint64
		}
		return 0, 1<<bits - 1
	}
	return -1 << (bits - 1), 1<<(bits-1) - 1
}

// CoerceError explains why a value does not fit a column; the sql layer
// turns it into a MySQL error naming the column and row.
type CoerceError struct {
	Code  uint16 // 1264 out of range, 1406 too long, 1366/1292 bad value
	Value string
	What  string // "integer", "decimal", "datetime" ... for 1366/1292 messages
	// Loose is what non-strict mode stores instead, for 1265 (an ENUM or
	// SET value that is not a member).
	Loose Value
}

func (e *CoerceError) Error() string {
	return fmt.Sprintf("cannot store %q (code %d)", e.Value, e.Code)
}

const (
	codeOutOfRange = 1264
	codeTooLong    = 1406
	codeBadValue   = 1366
	codeBadTime    = 1292
	codeTruncated  = 1265
)

// Coerce converts v into a value of column type t, as strict mode does.
func Coerce(v Value, t ColType) (Value, error) {
	if v.K == KindNull {
		return v, nil
	}
	v = crossKind(v, t)
	switch {
	case t.IsInteger():
		return coerceInt(v, t)
	case t.Base == TDecimal:
		return coerceDecimal(v, t)
	case t.Base == TFloat, t.Base == TDouble:
		if v.K == KindString {
			if _, ok := parseNumericPrefix(v.S); !ok {
				return v, &CoerceError{Code: codeBadValue, Value: v.S, What: "double"}
			}
		}
		f := v.ToFloat()
		if t.Base == TFloat {
			f = float64(float32(f))
		}
		if t.Unsigned && f < 0 {
			return v, &CoerceError{Code: codeOutOfRange, Value: v.String()}
		}
		return FloatValue(f), nil
	case t.IsBinary():
		return coerceBytes(v, t)
	case t.Base == TEnum:
		return coerceEnum(v, t)
	case t.Base == TBit:
		return coerceBit(v, t)
	case t.Base == TSet:
		return coerceSet(v, t)
	case t.IsString():
		s := v.String() // a DATE or DATETIME(fsp) as it prints
		limit := t.Length
		if t.Base == TText {
			limit = t.MaxBytes()
			if len(s) > limit {
				return v, &CoerceError{Code: codeTooLong, Value: s}
			}
			return StringValue(s), nil
		}
		if t.Base == TChar {
			s = strings.TrimRight(s, " ")
		}
		if utf8.RuneCountInString(s) > limit {
			return v, &CoerceError{Code: codeTooLong, Value: s}
		}
		return StringValue(s), nil
	case t.Base == TDatetime, t.Base == TTimestamp, t.Base == TDate:
		return coerceTime(v, t)
	case t.Base == TTime:
		return coerceDuration(v, t)
	case t.Base == TYear:
		return coerceYear(v)
	}
	return v, &CoerceError{Code: codeBadValue, Value: v.String()}
}

func coerceInt(v Value, t ColType) (Value, error) {
	min, max := t.intRange()
	var d *apd.Decimal
	switch v.K {
	case KindInt:
		if v.I < min || (v.I >= 0 && uint64(v.I) > max) {
			return v, &CoerceError{Code: codeOutOfRange, Value: v.String()}
		}
		if t.Unsigned {
			return UintValue(uint64(v.I)), nil
		}
		return IntValue(v.I), nil // not a YEAR's P
	case KindUint:
		if uint64(v.I) > max {
			return v, &CoerceError{Code: codeOutOfRange, Value: v.String()}
		}
		if t.Unsigned {
			return v, nil
		}
		return IntValue(v.I), nil
	case KindString:
		s := strings.TrimSpace(v.S)
		dd, _, err := apd.NewFromString(s)
		if err != nil || dd.Form != apd.Finite {
			return v, &CoerceError{Code: codeBadValue, Value: v.S, What: "integer"}
		}
		d = dd
	case KindTime:
		n, _ := v.ToInt64()
		return coerceInt(IntValue(n), t)
	default:
		dd, ok := v.ToDecimal()
		if !ok {
			return v, &CoerceError{Code: codeOutOfRange, Value: v.String()}
		}
		d = dd
	}
	var r apd.Decimal
	if _, err := roundCtx.RoundToIntegralValue(&r, d); err != nil {
		return v, &CoerceError{Code: codeOutOfRange, Value: v.String()}
	}
	if r.Negative && !r.IsZero() {
		i, err := r.Int64()
		if err != nil || i < min {
			return v, &CoerceError{Code: codeOutOfRange, Value: v.String()}
		}
		return IntValue(i), nil
	}
	r.Negative = false
	if r.Exponent > 0 {
		roundCtx.Quantize(&r, &r, 0)
	}
	if !r.Coeff.IsUint64() || r.Coeff.Uint64() > max {
		return v, &CoerceError{Code: codeOutOfRange, Value: v.String()}
	}
	u := r.Coeff.Uint64()
	if t.Unsigned {
		return UintValue(u), nil
	}
	return IntValue(int64(u)), nil
}

func coerceDecimal(v Value, t ColType) (Value, error) {
	if v.K == KindString {
		s := strings.TrimSpace(v.S)
		d, _, err := apd.NewFromString(s)
		if err != nil || d.Form != apd.Finite {
			return v, &CoerceError{Code: codeBadValue, Value: v.S, What: "decimal"}
		}
		v = DecimalValue(d)
	}
	d, ok := v.ToDecimal()
	if !ok || d.Form != apd.Finite {
		return v, &CoerceError{Code: codeOutOfRange, Value: v.String()}
	}
	r := new(apd.Decimal)
	if _, err := roundCtx.Quantize(r, d, -int32(t.Scale)); err != nil {
		return v, &CoerceError{Code: codeOutOfRange, Value: v.String()}
	}
	if r.NumDigits() > int64(t.Length) && !r.IsZero() {
		return v, &CoerceError{Code: codeOutOfRange, Value: v.String()}
	}
	if t.Unsigned && r.Negative && !r.IsZero() {
		return v, &CoerceError{Code: codeOutOfRange, Value: v.String()}
	}
	if r.IsZero() {
		r.Negative = false
	}
	return DecimalValue(r), nil
}

var timeLayouts = []string{
	"2006-01-02 15:04:05.999999", "2006-01-02 15:04:05", "2006-01-02T15:04:05.999999", "2006-01-02T15:04:05",
	"2006-01-02 15:04", "2006-01-02", "20060102150405", "20060102",
}

// ParseTime parses a DATETIME literal.
func ParseTime(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	for _, l := range timeLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

func coerceTime(v Value, t ColType) (Value, error) {
	what := "datetime"
	if t.Base == TDate {
		what = "date"
	}
	var tm time.Time
	switch v.K {
	case KindTime:
		tm = v.Time()
	case KindString:
		p, ok := ParseTime(v.S)
		if !ok {
			return v, &CoerceError{Code: codeBadTime, Value: v.S, What: what}
		}
		tm = p
	case KindInt, KindUint, KindDecimal, KindFloat:
		n, _ := v.ToInt64()
		p, ok := ParseTime(fmt.Sprint(n))
		if !ok {
			return v, &CoerceError{Code: codeBadTime, Value: v.String(), What: what}
		}
		tm = p
	}
	if t.Base == TDate {
		return DateValue(tm), nil
	}
	tm = tm.Truncate(time.Duration(math.Pow10(9 - t.Scale)))
	return TimeValueFsp(tm, t.Scale), nil
}
