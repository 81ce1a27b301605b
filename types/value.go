package types

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/cockroachdb/apd/v3"
)

// Kind tags a Value.
type Kind uint8

const (
	KindNull Kind = iota
	KindInt
	KindUint
	KindFloat
	KindDecimal
	KindString
	KindTime // DATETIME/TIMESTAMP: I holds microseconds since 0001-01-01 UTC-naive (see TimeValue)
	// KindDuration is a TIME: I holds signed microseconds, P the
	// fractional digits it prints (duration.go). Appended: the row codec
	// stores kinds.
	KindDuration
)

// Value is one SQL value.
type Value struct {
	K Kind
	// P refines a KindTime value for printing and numeric use: 0-6 the
	// fractional digits of a DATETIME, PDate a DATE; a KindDuration's
	// fractional digits; PYear a YEAR column's KindInt (printed 0000). It
	// fits in K's padding, costs no space, and is not stored (a column's
	// type says it). On a KindString value: PBinary a byte string,
	// PEnum/PSet an ENUM or SET value whose number is I; these are stored
	// (codec.go).
	P uint8
	I int64
	F float64
	S string
	D *apd.Decimal
}

// PDate in Value.P marks a KindTime value that is a DATE.
const PDate = 7

// DateValue is t's calendar day as a DATE.
func DateValue(t time.Time) Value {
	v := TimeValue(time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC))
	v.P = PDate
	return v
}

// TimeValueFsp is t as a DATETIME printed with fsp fractional digits.
func TimeValueFsp(t time.Time, fsp int) Value {
	v := TimeValue(t)
	v.P = uint8(fsp)
	return v
}

// IsDate reports whether v is a DATE value.
func (v Value) IsDate() bool { return v.K == KindTime && v.P == PDate }

// Null is SQL NULL.
var Null = Value{}

func IntValue(i int64) Value     { return Value{K: KindInt, I: i} }
func UintValue(u uint64) Value   { return Value{K: KindUint, I: int64(u)} }
func FloatValue(f float64) Value { return Value{K: KindFloat, F: f} }
func StringValue(s string) Value { return Value{K: KindString, S: s} }
func DecimalValue(d *apd.Decimal) Value {
	return Value{K: KindDecimal, D: d}
}

// TimeValue stores t's wall clock (its location is ignored, as DATETIME does).
func TimeValue(t time.Time) Value {
	y, mo, d := t.Date()
	naive := time.Date(y, mo, d, t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
	return Value{K: KindTime, I: naive.UnixMicro()}
}

// Time returns a KindTime value as a UTC time.Time holding the wall clock.
func (v Value) Time() time.Time { return time.UnixMicro(v.I).UTC() }

func (v Value) IsNull() bool { return v.K == KindNull }
func (v Value) Uint() uint64 { return uint64(v.I) }

// IsNumeric reports whether v is a number of any kind.
func (v Value) IsNumeric() bool {
	return v.K == KindInt || v.K == KindUint || v.K == KindFloat || v.K == KindDecimal
}

// String formats v as MySQL prints it in a result set. NULL is "NULL".
func (v Value) String() string {
	switch v.K {
	case KindNull:
		return "NULL"
	case KindInt:
		if v.P == PYear && v.I >= 0 && v.I < 10000 {
			return fmt.Sprintf("%04d", v.I)
		}
		return strconv.FormatInt(v.I, 10)
	case KindUint:
		if v.IsBit() {
			return bitBytes(v)
		}
		return strconv.FormatUint(uint64(v.I), 10)
	case KindFloat:
		return FormatFloat(v.F)
	case KindDecimal:
		return v.D.Text('f')
	case KindString:
		return v.S
	case KindTime:
		if v.P == PDate {
			return v.Time().Format(time.DateOnly)
		}
		return FormatTime(v.Time(), int(v.P))
	case KindDuration:
		return formatDuration(v.I, int(v.P))
	}
	return "?"
}

// FormatFloat prints a DOUBLE the way MariaDB does: the shortest digits
// that read back as the same double, in positional notation when the
// decimal exponent is from -15 to 14 (0.000000000000001234,
// 100000000000000.5) and as mantissa e exponent otherwise (1.5e15,
// 3.3333333333333336e-16: no '+', no leading zeros).
func FormatFloat(f float64) string {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return "NULL"
	}
	if f == 0 {
		return "0" // also -0, as MariaDB
	}
	e := strconv.FormatFloat(f, 'e', -1, 64)
	at := strings.LastIndexByte(e, 'e')
	exp, _ := strconv.Atoi(e[at+1:])
	if exp >= -15 && exp <= 14 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return e[:at+1] + strconv.Itoa(exp)
}

// FormatTime prints a DATETIME with fsp fractional digits.
func FormatTime(t time.Time, fsp int) string {
	s := t.Format("2006-01-02 15:04:05")
	if fsp > 0 {
		frac := t.Format(".000000")
		s += frac[:1+fsp]
	}
	return s
}

// ToInt64 converts v to an integer (rounding like MySQL's CAST ... AS SIGNED).
func (v Value) ToInt64() (int64, bool) {
	switch v.K {
	case KindInt:
		return v.I, true
	case KindUint:
		return v.I, uint64(v.I) <= math.MaxInt64
	case KindFloat:
		r := math.RoundToEven(v.F)
		if r > math.MaxInt64 || r < math.MinInt64 || math.IsNaN(r) {
			return 0, false
		}
		return int64(math.Round(v.F)), true
	case KindDecimal:
		var r apd.Decimal
		if _, err := roundCtx.RoundToIntegralValue(&r, v.D); err != nil {
			return 0, false
		}
		i, err := r.Int64()
		return i, err == nil
	case KindString:
		if n, ok := v.carriedNumber(); ok {
			return n.ToInt64()
		}
		t := strings.TrimSpace(v.S)
		if i, err := strconv.ParseInt(t, 10, 64); err == nil {
			return i, true
		}
		if d, _, err := apd.NewFromString(t); err == nil && d.Form == apd.Finite {
			return DecimalValue(d).ToInt64()
		}
		f, ok := parseNumericPrefix(v.S)
		if !ok {
			return 0, false
		}
		return FloatValue(f).ToInt64()
	case KindTime:
		t := v.Time()
		layout := "20060102150405"
		if v.P == PDate {
			layout = "20060102"
		}
		n, _ := strconv.ParseInt(t.Format(layout), 10, 64)
		return n, true
	case KindDuration:
		whole, frac := durationNumber(v.I)
		if frac*2 >= 1_000_000 {
			whole++
		} else if frac*2 <= -1_000_000 {
			whole--
		}
		return whole, true
	}
	return 0, false
}

// ToFloat converts v to float64.
func (v Value) ToFloat() float64 {
	switch v.K {
	case KindInt:
		return float64(v.I)
	case KindUint:
		return float64(uint64(v.I))
	case KindFloat:
		return v.F
	case KindDecimal:
		f, _ := v.D.Float64()
		return f
	case KindString:
		if n, ok := v.carriedNumber(); ok {
			return n.ToFloat()
		}
		f, _ := parseNumericPrefix(v.S)
		return f
	case KindTime:
		n, _ := v.ToInt64()
		return float64(n)
	case KindDuration:
		whole, frac := durationNumber(v.I)
		return float64(whole) + float64(frac)/1e6
	}
	return 0
}

// ToDecimal converts v to an exact decimal (floats go through their shortest
// decimal representation).
func (v Value) ToDecimal() (*apd.Decimal, bool) {
	switch v.K {
	case KindInt:
		return apd.New(v.I, 0), true
	case KindUint:
		d := new(apd.Decimal)
		d.Coeff.SetUint64(uint64(v.I))
		return d, true
	case KindFloat:
		d, _, err := apd.NewFromString(strconv.FormatFloat(v.F, 'f', -1, 64))
		return d, err == nil
	case KindDecimal:
		return v.D, true
	case KindString:
		if n, ok := v.carriedNumber(); ok {
			return n.ToDecimal()
		}
		s := strings.TrimSpace(v.S)
		d, _, err := apd.NewFromString(s)
		if err == nil && d.Form == apd.Finite {
			return d, true
		}
		f, ok := parseNumericPrefix(v.S)
		dd, _, _ := apd.NewFromString(strconv.FormatFloat(f, 'f', -1, 64))
		return dd, ok && dd != nil
	case KindTime:
		n, _ := v.ToInt64()
		return apd.New(n, 0), true
	case KindDuration:
		// [-]HHMMSS.ffff with the value's digits, as TIME(n) + 0 shows
		whole, frac := durationNumber(v.I)
		d := apd.New(whole*1_000_000+frac, -6)
		if _, err := roundCtx.Quantize(d, d, -int32(v.P)); err != nil {
			return nil, false
		}
		return d, true
	}
	return nil, false
}

// Truthy is MySQL's boolean test: NULL is unknown (false, known=false).
func (v Value) Truthy() (truth bool, known bool) {
	switch v.K {
	case KindNull:
		return false, false
	case KindInt, KindUint:
		return v.I != 0, true
	case KindFloat:
		return v.F != 0, true
	case KindDecimal:
		return !v.D.IsZero(), true
	case KindString:
		if n, ok := v.carriedNumber(); ok {
			return n.I != 0, true
		}
		f, _ := parseNumericPrefix(v.S)
		return f != 0, true
	case KindTime:
		return true, true
	case KindDuration:
		return v.I != 0, true
	}
	return false, false
}

// IsNumberText reports whether a string converts to a number whole (what
// strict mode requires of a string compared with, or cast to, a number).
func IsNumberText(s string) bool {
	_, ok := parseNumericPrefix(s)
	return ok
}

// parseNumericPrefix reads the longest numeric prefix of s, as MySQL does
// when a string meets a number; ok is false if s is not entirely numeric.
func parseNumericPrefix(s string) (float64, bool) {
	t := strings.TrimSpace(s)
	if f, err := strconv.ParseFloat(t, 64); err == nil {
		return f, true
	}
	end := 0
	seenDigit, seenDot, seenExp := false, false, false
	for end < len(t) {
		c := t[end]
		switch {
		case c >= '0' && c <= '9':
			seenDigit = true
		case (c == '+' || c == '-') && (end == 0 || t[end-1] == 'e' || t[end-1] == 'E'):
		case c == '.' && !seenDot && !seenExp:
			seenDot = true
		case (c == 'e' || c == 'E') && seenDigit && !seenExp:
			seenExp = true
		default:
			goto done
		}
		end++
	}
done:
	for end > 0 {
		if f, err := strconv.ParseFloat(t[:end], 64); err == nil {
			return f, false
		}
		end--
	}
	return 0, false
}

var roundCtx = func() *apd.Context {
	c := apd.BaseContext.WithPrecision(100)
	c.Rounding = apd.RoundHalfUp
	return c
}()

// DecimalContext is the context plrun computes DECIMALs in: 65 digits as
// MySQL's DECIMAL maximum, rounding half up as MySQL does.
var DecimalContext = roundCtx
