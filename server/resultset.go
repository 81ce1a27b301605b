package server

import (
	"encoding/binary"
	"math"
	"strconv"
	"time"

	"github.com/plrun/plrun/sql"
	"github.com/plrun/plrun/sql/datetime"

	"github.com/go-mysql-org/go-mysql/mysql"

	"github.com/plrun/plrun/types"
)

const (
	charsetBinary  = 63 // binary: numbers and dates
	charsetUTF8MB4 = 45 // utf8mb4_general_ci: every string plrun has
)

// notFixedDec is the decimals of a DOUBLE or FLOAT, and MariaDB's of a
// computed string: the digits after the point are not fixed.
const (
	notFixedDec       = 31
	notFixedDecString = 39
)

// field builds the column definition MariaDB sends for col. A table
// column read bare and a computed value are described apart, as MariaDB
// does: only a computed number carries BINARY, a computed string has
// decimals 39 and no BLOB flag, a computed DOUBLE is 23 characters long.
func field(col sql.Column) *mysql.Field {
	f := &mysql.Field{
		Schema:   []byte(col.DB),
		Table:    []byte(col.Table),
		OrgTable: []byte(col.OrgTable),
		Name:     []byte(col.Name),
		OrgName:  []byte(col.OrgName),
		Charset:  charsetBinary,
		Flag:     col.Flags,
	}
	t := col.Type
	if col.NotNull {
		f.Flag |= mysql.NOT_NULL_FLAG
	}
	if t.Unsigned {
		f.Flag |= mysql.UNSIGNED_FLAG
	}
	numeric := func(typ uint8, width int) {
		f.Type = typ
		if col.Expr {
			f.Flag |= mysql.BINARY_FLAG
		}
		f.ColumnLength = uint32(width)
	}
	switch t.Base {
	case types.TTinyInt:
		numeric(mysql.MYSQL_TYPE_TINY, intWidth(t, 4))
	case types.TSmallInt:
		numeric(mysql.MYSQL_TYPE_SHORT, intWidth(t, 6))
	case types.TMediumInt:
		numeric(mysql.MYSQL_TYPE_INT24, intWidth(t, 9))
	case types.TInt:
		numeric(mysql.MYSQL_TYPE_LONG, intWidth(t, 11))
	case types.TBigInt:
		numeric(mysql.MYSQL_TYPE_LONGLONG, intWidth(t, 20))
	case types.TDecimal:
		width := t.Length
		if t.Scale > 0 {
			width++ // the point
		}
		if !t.Unsigned {
			width++ // the sign
		}
		numeric(mysql.MYSQL_TYPE_NEWDECIMAL, width)
		f.Decimal = uint8(t.Scale)
	case types.TFloat:
		numeric(mysql.MYSQL_TYPE_FLOAT, approxWidth(col, 12))
		f.Decimal = approxDecimals(t)
	case types.TDouble:
		numeric(mysql.MYSQL_TYPE_DOUBLE, approxWidth(col, 22))
		f.Decimal = approxDecimals(t)
	case types.TDatetime, types.TTimestamp:
		f.Type = mysql.MYSQL_TYPE_DATETIME
		if t.Base == types.TTimestamp {
			f.Type = mysql.MYSQL_TYPE_TIMESTAMP
			f.Flag |= mysql.UNSIGNED_FLAG // as MariaDB flags a TIMESTAMP
		}
		f.Flag |= mysql.BINARY_FLAG
		f.ColumnLength = 19
		if t.Scale > 0 {
			f.ColumnLength += uint32(1 + t.Scale)
		}
		f.Decimal = uint8(t.Scale)
	case types.TYear:
		// as MariaDB describes YEAR: UNSIGNED ZEROFILL, 4 wide
		f.Type = mysql.MYSQL_TYPE_YEAR
		f.Flag |= mysql.UNSIGNED_FLAG | mysql.ZEROFILL_FLAG
		f.ColumnLength = 4
	case types.TDate:
		f.Type = mysql.MYSQL_TYPE_DATE
		f.Flag |= mysql.BINARY_FLAG
		f.ColumnLength = 10
	case types.TTime:
		f.Type = mysql.MYSQL_TYPE_TIME
		f.Flag |= mysql.BINARY_FLAG
		f.ColumnLength = 10
		if t.Scale > 0 {
			f.ColumnLength += uint32(1 + t.Scale)
		}
		f.Decimal = uint8(t.Scale)
	case types.TChar:
		f.Type = mysql.MYSQL_TYPE_STRING
		f.Charset = charsetUTF8MB4
		f.ColumnLength = uint32(t.Length * 4)
		stringDecimals(f, col)
	case types.TText, types.TBinary, types.TVarbinary, types.TBlob, types.TEnum, types.TSet, types.TBit:
		lobField(f, t)
		if col.Expr {
			f.Flag &^= mysql.BLOB_FLAG // MariaDB flags a TEXT or BLOB column, not a computed one
		}
		if t.Base == types.TText {
			stringDecimals(f, col)
		}
	default: // TVarchar, and expressions without a declared type
		f.Type = mysql.MYSQL_TYPE_VAR_STRING
		f.Charset = charsetUTF8MB4
		f.ColumnLength = uint32(max(t.Length, 0) * 4)
		if t.Base == 0 && !col.Expr {
			f.ColumnLength = 4
		}
		stringDecimals(f, col)
	}
	if col.NullLiteral {
		f.Type, f.Charset, f.ColumnLength, f.Decimal = mysql.MYSQL_TYPE_NULL, charsetBinary, 0, 0
		f.Flag |= mysql.BINARY_FLAG
	}
	if col.Binary && t.IsString() {
		f.Charset = charsetBinary
		f.Flag |= mysql.BINARY_FLAG
	}
	return f
}

// approxWidth is a FLOAT or DOUBLE column's length: its own as a table
// column, 23 computed.
func approxWidth(col sql.Column, own int) int {
	if col.Expr && col.Type.Length == 0 {
		return 23
	}
	if col.Type.Length > 0 {
		return col.Type.Length
	}
	return own
}

// approxDecimals: a FLOAT or DOUBLE given a length has the decimals its
// Scale says (ROUND(x, 1) has 1); else they are not fixed.
func approxDecimals(t types.ColType) uint8 {
	if t.Length > 0 {
		return uint8(t.Scale)
	}
	return notFixedDec
}

func stringDecimals(f *mysql.Field, col sql.Column) {
	if col.Expr && !col.FixedDecimals {
		f.Decimal = notFixedDecString
	}
}

func intWidth(t types.ColType, def int) int {
	if t.Length > 0 {
		return t.Length
	}
	if t.Unsigned && t.Base != types.TBigInt {
		return def - 1 // no sign
	}
	return def
}

// textValue formats v as the text protocol carries it, following the
// column's declared type where MySQL's text differs from Value.String.
func textValue(t types.ColType, v types.Value) string {
	if v.K == types.KindTime {
		switch t.Base {
		case types.TDate:
			return v.Time().Format(time.DateOnly)
		case types.TDatetime, types.TTimestamp:
			return types.FormatTime(v.Time(), t.Scale)
		}
	}
	return v.String()
}

// toMySQLResult converts an engine result to go-mysql's, rows in the text
// protocol or, for prepared statements, the binary protocol.
func toMySQLResult(r *sql.Result, binaryRows bool) *mysql.Result {
	if !r.IsResultSet() {
		return &mysql.Result{AffectedRows: r.AffectedRows, InsertId: r.LastInsertID, Warnings: r.Warnings}
	}
	rs := &mysql.Resultset{Fields: make([]*mysql.Field, len(r.Columns))}
	for i, c := range r.Columns {
		rs.Fields[i] = field(c)
		if binaryRows {
			widenForValues(rs.Fields[i], c, i, r.Rows)
		}
	}
	rs.RowDatas = make([]mysql.RowData, 0, len(r.Rows))
	for _, row := range r.Rows {
		if binaryRows {
			rs.RowDatas = append(rs.RowDatas, binaryRow(r.Columns, rs.Fields, row))
		} else {
			rs.RowDatas = append(rs.RowDatas, textRow(r.Columns, row))
		}
	}
	return &mysql.Result{Resultset: rs, Warnings: r.Warnings}
}

func textRow(cols []sql.Column, row []types.Value) mysql.RowData {
	var b []byte
	for i, v := range row {
		if v.IsNull() {
			b = append(b, 0xfb)
			continue
		}
		b = appendLenEnc(b, textValue(cols[i].Type, v))
	}
	return b
}

// binaryRow encodes one row as ProtocolBinary::ResultsetRow: a 0x00
// header, a NULL bitmap offset by 2 bits, then each non-NULL value in the
// form of its column's MYSQL_TYPE.
func binaryRow(cols []sql.Column, fields []*mysql.Field, row []types.Value) mysql.RowData {
	bitmapLen := (len(row) + 7 + 2) / 8
	b := make([]byte, 1+bitmapLen, 1+bitmapLen+8*len(row))
	for i, v := range row {
		if v.IsNull() {
			b[1+(i+2)/8] |= 1 << ((i + 2) % 8)
			continue
		}
		b = appendBinaryValue(b, cols[i].Type, fields[i].Type, v)
	}
	return b
}

func appendBinaryValue(b []byte, t types.ColType, typ uint8, v types.Value) []byte {
	switch typ {
	case mysql.MYSQL_TYPE_TINY:
		return append(b, byte(intBits(v)))
	case mysql.MYSQL_TYPE_SHORT, mysql.MYSQL_TYPE_YEAR:
		return binary.LittleEndian.AppendUint16(b, uint16(intBits(v)))
	case mysql.MYSQL_TYPE_INT24, mysql.MYSQL_TYPE_LONG:
		return binary.LittleEndian.AppendUint32(b, uint32(intBits(v)))
	case mysql.MYSQL_TYPE_LONGLONG:
		return binary.LittleEndian.AppendUint64(b, intBits(v))
	case mysql.MYSQL_TYPE_FLOAT:
		return binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(v.ToFloat())))
	case mysql.MYSQL_TYPE_DOUBLE:
		return binary.LittleEndian.AppendUint64(b, math.Float64bits(v.ToFloat()))
	case mysql.MYSQL_TYPE_DATE, mysql.MYSQL_TYPE_DATETIME, mysql.MYSQL_TYPE_TIMESTAMP:
		if v.K == types.KindTime {
			return appendBinaryTime(b, v.Time(), typ == mysql.MYSQL_TYPE_DATE)
		}
	case mysql.MYSQL_TYPE_TIME:
		if v.K == types.KindDuration { // a TIME column's value
			return appendBinaryDuration(b, time.Duration(v.I)*time.Microsecond)
		}
		if d, _, ok := datetime.ParseDuration(v.String()); ok {
			return appendBinaryDuration(b, d)
		}
	}
	return appendLenEnc(b, textValue(t, v))
}

// intBits returns v as the two's-complement bits of an integer column;
// a value that is not an integer (an expression typed loosely) is
// converted as MySQL's CAST would.
func intBits(v types.Value) uint64 {
	switch v.K {
	case types.KindInt, types.KindUint:
		return uint64(v.I)
	}
	if i, ok := v.ToInt64(); ok {
		return uint64(i)
	}
	if u, err := strconv.ParseUint(v.String(), 10, 64); err == nil {
		return u
	}
	return 0
}

// appendBinaryTime writes MYSQL_TYPE_DATE/DATETIME's binary form: a length
// (4, 7 or 11) and only the parts that are not zero.
func appendBinaryTime(b []byte, t time.Time, dateOnly bool) []byte {
	micro := t.Nanosecond() / 1000
	n := 11
	switch {
	case dateOnly || t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 && micro == 0:
		n = 4
	case micro == 0:
		n = 7
	}
	b = append(b, byte(n))
	b = binary.LittleEndian.AppendUint16(b, uint16(t.Year()))
	b = append(b, byte(t.Month()), byte(t.Day()))
	if n >= 7 {
		b = append(b, byte(t.Hour()), byte(t.Minute()), byte(t.Second()))
	}
	if n == 11 {
		b = binary.LittleEndian.AppendUint32(b, uint32(micro))
	}
	return b
}

// appendBinaryDuration writes MYSQL_TYPE_TIME's binary form: a length
// (0, 8 or 12), the sign, days, hours, minutes, seconds, microseconds.
func appendBinaryDuration(b []byte, d time.Duration) []byte {
	if d == 0 {
		return append(b, 0)
	}
	neg := byte(0)
	if d < 0 {
		neg, d = 1, -d
	}
	micro := uint32(d / time.Microsecond % 1e6)
	n := byte(12)
	if micro == 0 {
		n = 8
	}
	b = append(b, n, neg)
	b = binary.LittleEndian.AppendUint32(b, uint32(d/(24*time.Hour)))
	b = append(b, byte(d/time.Hour%24), byte(d/time.Minute%60), byte(d/time.Second%60))
	if n == 12 {
		b = binary.LittleEndian.AppendUint32(b, micro)
	}
	return b
}

func appendLenEnc(b []byte, s string) []byte {
	b = append(b, mysql.PutLengthEncodedInt(uint64(len(s)))...)
	return append(b, s...)
}

// widenForValues makes a computed integer column BIGINT when one of its
// values does not fit the narrower type its length chose: the binary
// protocol writes a value in its column's type's width, and a length is
// derived from declared display widths (INT(1) holds 10 digits), which
// do not bound the values.
func widenForValues(f *mysql.Field, col sql.Column, i int, rows [][]types.Value) {
	var lo, hi int64
	switch f.Type {
	case mysql.MYSQL_TYPE_TINY:
		lo, hi = math.MinInt8, math.MaxInt8
	case mysql.MYSQL_TYPE_SHORT:
		lo, hi = math.MinInt16, math.MaxInt16
	case mysql.MYSQL_TYPE_INT24, mysql.MYSQL_TYPE_LONG:
		lo, hi = math.MinInt32, math.MaxInt32
	default:
		return
	}
	if col.Type.Unsigned {
		lo, hi = 0, 2*hi+1
	}
	for _, row := range rows {
		if i >= len(row) || row[i].IsNull() {
			continue
		}
		v := row[i]
		n, ok := v.ToInt64()
		if !ok || n < lo || n > hi || (v.K == types.KindUint && uint64(v.I) > uint64(hi)) {
			f.Type = mysql.MYSQL_TYPE_LONGLONG
			return
		}
	}
}
