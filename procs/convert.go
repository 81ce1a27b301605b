package procs

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cockroachdb/apd/v3"
	"github.com/plrun/plrun/sqlerr"
)

// typeKind is the family of a declared parameter type.
type typeKind int

const (
	kindOther typeKind = iota // DATE, DATETIME, JSON, ...: passed through
	kindInt
	kindDecimal
	kindFloat
	kindString
)

// sqlType is a parameter type reduced to what conversion needs.
type sqlType struct {
	kind      typeKind
	name      string // base name: "INT", "DECIMAL", "VARCHAR"
	bits      int    // integers: 8, 16, 24, 32, 64
	unsigned  bool
	precision int // decimals: total digits
	scale     int // decimals: digits after the point
	maxChars  int // CHAR/VARCHAR(n); 0 = unchecked
}

func parseSQLType(text string) sqlType {
	t := sqlType{}
	upper := strings.ToUpper(text)
	base, rest := upper, ""
	if i := strings.IndexAny(upper, "( "); i >= 0 {
		base, rest = upper[:i], upper[i:]
	}
	t.name = base
	var args []int
	if strings.HasPrefix(rest, "(") {
		if end := strings.IndexByte(rest, ')'); end > 0 {
			for _, a := range strings.Split(rest[1:end], ",") {
				n, err := strconv.Atoi(strings.TrimSpace(a))
				if err != nil {
					args = nil
					break
				}
				args = append(args, n)
			}
			rest = rest[end+1:]
		}
	}
	t.unsigned = strings.Contains(" "+rest+" ", " UNSIGNED ") || strings.Contains(" "+rest+" ", " ZEROFILL ")
	switch base {
	case "TINYINT", "BOOL", "BOOLEAN":
		t.kind, t.bits = kindInt, 8
	case "SMALLINT":
		t.kind, t.bits = kindInt, 16
	case "MEDIUMINT":
		t.kind, t.bits = kindInt, 24
	case "INT", "INTEGER":
		t.kind, t.bits = kindInt, 32
	case "BIGINT":
		t.kind, t.bits = kindInt, 64
	case "DECIMAL", "DEC", "NUMERIC", "FIXED":
		t.kind, t.precision, t.scale = kindDecimal, 10, 0
		if len(args) >= 1 {
			t.precision = args[0]
		}
		if len(args) >= 2 {
			t.scale = args[1]
		}
	case "FLOAT", "DOUBLE", "REAL":
		t.kind = kindFloat
	case "CHAR", "VARCHAR", "NCHAR", "NVARCHAR":
		t.kind = kindString
		if len(args) == 1 {
			t.maxChars = args[0]
		}
	case "TEXT", "TINYTEXT", "MEDIUMTEXT", "LONGTEXT", "ENUM", "SET":
		t.kind = kindString
	}
	return t
}

// ConvertParam converts v (nil, bool, int64, uint64, float64, string or
// []byte, or any Go integer/float) to the declared type of prm, the way
// MySQL in strict mode assigns a value to a column of that type:
//
//   - integer types: int64 (uint64 only above MaxInt64); numeric strings are
//     accepted, fractions round half away from zero; range is checked (1264);
//   - DECIMAL(p,s): an exact decimal string rounded to s digits (1264 if it
//     needs more than p digits);
//   - FLOAT/DOUBLE: float64; CHAR/VARCHAR/TEXT: string, length checked (1406);
//   - other types (DATE, JSON, ...): passed through.
//
// A value of the wrong kind is error 1366. nil is always nil (SQL NULL).
func ConvertParam(prm Param, v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	v = normalizeGo(v)
	t := parseSQLType(prm.Type)
	switch t.kind {
	case kindInt:
		return convertInt(prm, t, v)
	case kindDecimal:
		return convertDecimal(prm, t, v)
	case kindFloat:
		return convertFloat(prm, v)
	case kindString:
		return convertString(prm, t, v)
	}
	return v, nil
}

// normalizeGo maps Go's numeric zoo onto the Host value set.
func normalizeGo(v any) any {
	switch x := v.(type) {
	case int:
		return int64(x)
	case int8:
		return int64(x)
	case int16:
		return int64(x)
	case int32:
		return int64(x)
	case uint:
		return uint64(x)
	case uint8:
		return uint64(x)
	case uint16:
		return uint64(x)
	case uint32:
		return uint64(x)
	case float32:
		return float64(x)
	case []byte:
		return string(x)
	case *big.Int:
		if x.IsInt64() {
			return x.Int64()
		}
		if x.IsUint64() {
			return x.Uint64()
		}
		return x.String()
	}
	return v
}

func incorrectValue(kind string, prm Param, v any) error {
	return sqlerr.New(sqlerr.ErTruncatedWrongField,
		"Incorrect %s value: '%s' for column '%s' at row 1", kind, valueText(v), prm.Name)
}

func outOfRange(prm Param) error {
	return sqlerr.New(sqlerr.ErWarnDataOutOfRange, "Out of range value for column '%s' at row 1", prm.Name)
}

func valueText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case bool:
		if x {
			return "1"
		}
		return "0"
	}
	return fmt.Sprint(v)
}

// toDecimal reads any numeric-looking value as an exact decimal.
func toDecimal(v any) (*apd.Decimal, bool) {
	d := new(apd.Decimal)
	switch x := v.(type) {
	case int64:
		d.SetInt64(x)
	case uint64:
		d.Coeff.SetUint64(x)
	case bool:
		if x {
			d.SetInt64(1)
		}
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, false
		}
		if _, err := d.SetFloat64(x); err != nil {
			return nil, false
		}
	case string:
		s := strings.TrimSpace(x)
		if s == "" {
			return nil, false
		}
		if _, _, err := d.SetString(s); err != nil || d.Form != apd.Finite {
			return nil, false
		}
	default:
		return nil, false
	}
	return d, true
}

var decimalCtx = apd.BaseContext.WithPrecision(200)

func init() { decimalCtx.Rounding = apd.RoundHalfUp }

func convertInt(prm Param, t sqlType, v any) (any, error) {
	switch x := v.(type) {
	case int64:
		return checkIntRange(prm, t, x, 0, x >= 0)
	case uint64:
		if x <= math.MaxInt64 {
			return checkIntRange(prm, t, int64(x), 0, true)
		}
		return checkIntRange(prm, t, 0, x, true)
	case string:
		if n, err := strconv.ParseInt(strings.TrimSpace(x), 10, 64); err == nil {
			return checkIntRange(prm, t, n, 0, n >= 0)
		}
	}
	d, ok := toDecimal(v)
	if !ok {
		return nil, incorrectValue("integer", prm, v)
	}
	var rounded apd.Decimal
	if _, err := decimalCtx.Quantize(&rounded, d, 0); err != nil {
		return nil, outOfRange(prm)
	}
	if n, err := rounded.Int64(); err == nil {
		return checkIntRange(prm, t, n, 0, n >= 0)
	}
	if !rounded.Negative {
		if u, err := strconv.ParseUint(rounded.Text('f'), 10, 64); err == nil {
			return checkIntRange(prm, t, 0, u, true)
		}
	}
	return nil, outOfRange(prm)
}

// checkIntRange checks n (or big when n does not fit int64) against t.
func checkIntRange(prm Param, t sqlType, n int64, big uint64, nonNegative bool) (any, error) {
	if big != 0 {
		if !t.unsigned || t.bits < 64 {
			return nil, outOfRange(prm)
		}
		return big, nil
	}
	if t.unsigned {
		if !nonNegative || t.bits < 64 && uint64(n) > (uint64(1)<<t.bits)-1 {
			return nil, outOfRange(prm)
		}
		return n, nil
	}
	if t.bits < 64 {
		limit := int64(1) << (t.bits - 1)
		if n < -limit || n > limit-1 {
			return nil, outOfRange(prm)
		}
	}
	return n, nil
}

func convertDecimal(prm Param, t sqlType, v any) (any, error) {
	d, ok := toDecimal(v)
	if !ok {
		return nil, incorrectValue("decimal", prm, v)
	}
	var q apd.Decimal
	if _, err := decimalCtx.Quantize(&q, d, int32(-t.scale)); err != nil {
		return nil, outOfRange(prm)
	}
	if q.IsZero() {
		q.Negative = false
	}
	if t.unsigned && q.Negative {
		return nil, outOfRange(prm)
	}
	if t.precision > 0 && int(q.NumDigits()) > t.precision && !q.IsZero() {
		return nil, outOfRange(prm)
	}
	return q.Text('f'), nil
}

func convertFloat(prm Param, v any) (any, error) {
	switch x := v.(type) {
	case float64:
		return x, nil
	case int64:
		return float64(x), nil
	case uint64:
		return float64(x), nil
	case bool:
		if x {
			return 1.0, nil
		}
		return 0.0, nil
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		if err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) {
			return f, nil
		}
	}
	return nil, incorrectValue("double", prm, v)
}

func convertString(prm Param, t sqlType, v any) (any, error) {
	var s string
	switch x := v.(type) {
	case string:
		s = x
	case int64, uint64, float64, bool:
		s = valueText(x)
	default:
		return nil, incorrectValue("string", prm, v)
	}
	if t.maxChars > 0 && utf8.RuneCountInString(s) > t.maxChars {
		return nil, sqlerr.New(sqlerr.ErDataTooLong, "Data too long for column '%s' at row 1", prm.Name)
	}
	return s, nil
}
