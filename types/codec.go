package types

import (
	"encoding/binary"
	"errors"
	"math"

	"github.com/cockroachdb/apd/v3"
)

// ErrBadEncoding is returned by DecodeRow for malformed input.
var ErrBadEncoding = errors.New("types: malformed row encoding")

// AppendValue appends v's binary encoding to dst.
func AppendValue(dst []byte, v Value) []byte {
	dst = append(dst, byte(v.K))
	switch v.K {
	case KindInt, KindUint, KindTime, KindDuration:
		dst = binary.AppendVarint(dst, v.I)
	case KindFloat:
		dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(v.F))
	case KindDecimal:
		s := v.D.Text('f')
		dst = binary.AppendUvarint(dst, uint64(len(s)))
		dst = append(dst, s...)
	case KindString:
		dst = binary.AppendUvarint(dst, uint64(len(v.S)))
		dst = append(dst, v.S...)
	}
	return dst
}

// DecodeValue reads one value from buf, returning the rest.
func DecodeValue(buf []byte) (Value, []byte, error) {
	if len(buf) == 0 {
		return Null, nil, ErrBadEncoding
	}
	k := Kind(buf[0])
	buf = buf[1:]
	switch k {
	case KindNull:
		return Null, buf, nil
	case KindInt, KindUint, KindTime, KindDuration:
		i, n := binary.Varint(buf)
		if n <= 0 {
			return Null, nil, ErrBadEncoding
		}
		return Value{K: k, I: i}, buf[n:], nil
	case KindFloat:
		if len(buf) < 8 {
			return Null, nil, ErrBadEncoding
		}
		return FloatValue(math.Float64frombits(binary.LittleEndian.Uint64(buf))), buf[8:], nil
	case KindDecimal, KindString:
		l, n := binary.Uvarint(buf)
		if n <= 0 || uint64(len(buf)-n) < l {
			return Null, nil, ErrBadEncoding
		}
		s := string(buf[n : n+int(l)])
		buf = buf[n+int(l):]
		if k == KindString {
			return StringValue(s), buf, nil
		}
		d, _, err := apd.NewFromString(s)
		if err != nil {
			return Null, nil, ErrBadEncoding
		}
		return DecimalValue(d), buf, nil
	}
	return Null, nil, ErrBadEncoding
}

// AppendRow appends a count-prefixed row.
func AppendRow(dst []byte, row []Value) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(row)))
	for _, v := range row {
		dst = AppendValue(dst, v)
	}
	return dst
}

// DecodeRow reads a row written by AppendRow.
func DecodeRow(buf []byte) ([]Value, []byte, error) {
	n, k := binary.Uvarint(buf)
	if k <= 0 || n > uint64(len(buf)) {
		return nil, nil, ErrBadEncoding
	}
	buf = buf[k:]
	row := make([]Value, n)
	for i := range row {
		v, rest, err := DecodeValue(buf)
		if err != nil {
			return nil, nil, err
		}
		row[i], buf = v, rest
	}
	return row, buf, nil
}
