package infoschema

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
)

// ColumnKey is COLUMNS.COLUMN_KEY (SHOW COLUMNS' Key): PRI for a column of
// the primary key, UNI for the column of a one-column unique key, MUL for
// the first column of any other key, as MariaDB decides it.
func ColumnKey(def *storage.TableDef, c int) string {
	for _, ix := range def.Indexes {
		for _, ic := range ix.Cols {
			if ix.Primary && ic == c {
				return "PRI"
			}
		}
	}
	key := ""
	for _, ix := range def.Indexes {
		if len(ix.Cols) == 0 || ix.Cols[0] != c {
			continue
		}
		if ix.Unique && len(ix.Cols) == 1 {
			// UNI wins over MUL, as in MariaDB (a unique key is ranked first)
			return "UNI"
		}
		key = "MUL"
	}
	return key
}

// Extra is COLUMNS.EXTRA (SHOW COLUMNS' Extra).
func Extra(c *storage.Column) string {
	switch {
	case c.AutoIncrement:
		return "auto_increment"
	case c.OnUpdateNow:
		return "on update " + c.NowText()
	}
	return ""
}

// ShowDefault is SHOW COLUMNS' Default: the value as text, NULL when there
// is none.
func ShowDefault(c *storage.Column) types.Value {
	switch {
	case c.DefaultNow:
		return str(c.NowText())
	case c.HasDefault && !c.Default.IsNull():
		return str(defaultText(c))
	}
	return null
}

// defaultText is a column's default value as MariaDB prints it for the
// column's type: a DATE without a time, a DATETIME(n) with n fractional
// digits.
func defaultText(c *storage.Column) string {
	v := c.Default
	if v.IsBit() {
		return types.BitLiteral(v)
	}
	if v.K != types.KindTime {
		return v.String()
	}
	t := v.Time()
	switch {
	case c.Type.Base == types.TDate:
		return t.Format("2006-01-02")
	case c.Type.Scale > 0:
		frac := fmt.Sprintf("%06d", t.Nanosecond()/1000)[:min(c.Type.Scale, 6)]
		return t.Format("2006-01-02 15:04:05") + "." + frac
	}
	return t.Format("2006-01-02 15:04:05")
}

// ColumnDefault is COLUMNS.COLUMN_DEFAULT as MariaDB 10.2.7+ prints it: an
// expression's text, so a string or date is quoted ('x”y'), a number is
// not, a nullable column without one says NULL, and a NOT NULL column
// without one is SQL NULL.
func ColumnDefault(c *storage.Column) types.Value {
	switch {
	case c.DefaultNow:
		return str(c.NowText())
	case c.AutoIncrement:
		return null
	case c.HasDefault && !c.Default.IsNull():
		if c.Type.IsString() || !c.Default.IsNumeric() {
			return str(quote(asText(defaultText(c))))
		}
		return str(defaultText(c))
	case c.NotNull:
		return null
	}
	return str("NULL")
}

// quote is a SQL string literal as MariaDB prints a default: ' doubled,
// \ escaped.
func quote(s string) string { return "'" + quoteEscapes.Replace(s) + "'" }

var quoteEscapes = strings.NewReplacer(`\`, `\\`, `'`, `''`, "\x00", `\0`, "\n", `\n`, "\r", `\r`)

// dataType is COLUMNS.DATA_TYPE: the type's name (its SQL text s)
// without its length.
func dataType(s string) string {
	if i := strings.IndexAny(s, "( "); i >= 0 {
		s = s[:i]
	}
	return s
}

// bytesPerChar is utf8mb4's longest character, plrun's one character set.
const bytesPerChar = 4

// lengths are COLUMNS' CHARACTER_MAXIMUM_LENGTH, CHARACTER_OCTET_LENGTH,
// NUMERIC_PRECISION, NUMERIC_SCALE and DATETIME_PRECISION.
func lengths(t types.ColType) (charMax, octets, precision, scale, dtPrecision types.Value) {
	charMax, octets, precision, scale, dtPrecision = null, null, null, null, null
	switch {
	case t.JSON:
		// MariaDB's JSON is LONGTEXT
		charMax, octets = u64(4294967295), u64(4294967295)
		return
	}
	switch t.Base {
	case types.TChar, types.TVarchar:
		charMax, octets = u64(uint64(t.Length)), u64(uint64(t.Length*bytesPerChar))
	case types.TText, types.TBlob, types.TBinary, types.TVarbinary:
		// TEXT's are in bytes too, as MariaDB prints them
		n := uint64(t.MaxBytes())
		charMax, octets = u64(n), u64(n)
	case types.TEnum, types.TSet:
		n := uint64(t.MaxMemberLen())
		charMax, octets = u64(n), u64(n*bytesPerChar)
	case types.TTinyInt, types.TSmallInt, types.TMediumInt, types.TInt, types.TBigInt:
		p := map[types.Base]uint64{types.TTinyInt: 3, types.TSmallInt: 5, types.TMediumInt: 7, types.TInt: 10, types.TBigInt: 19}[t.Base]
		if t.Base == types.TBigInt && t.Unsigned {
			p = 20
		}
		precision, scale = u64(p), u64(0)
	case types.TDecimal:
		precision, scale = u64(uint64(t.Length)), u64(uint64(t.Scale))
	case types.TBit:
		precision = u64(uint64(t.Length))
	case types.TDouble:
		precision = u64(22)
	case types.TFloat:
		precision = u64(12)
	case types.TDatetime, types.TTimestamp, types.TTime:
		dtPrecision = u64(uint64(t.Scale))
	}
	return
}

// asText is a byte string as a utf8mb4 column holds it, as MariaDB
// converts one: each byte that starts no valid character becomes '?'.
func asText(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		if r == utf8.RuneError && n == 1 {
			b.WriteByte('?')
		} else {
			b.WriteString(s[:n])
		}
		s = s[n:]
	}
	return b.String()
}
