package types

import (
	"encoding/binary"
	"errors"
	"math"

	"github.com/cockroachdb/apd/v3"
)

// ErrBadEncoding is returned by DecodeRow for malformed input.
var ErrBadEncoding = errors.New("types: malformed row encoding")

// Tags after the Kinds for the KindString values that carry more than
// text: a byte string, an ENUM or SET value (its number, then its text).
// Rows written before they existed never hold them.
const (
	tagBytes  = 0x40
	tagMember = 0x41
	tagBit    = 0x42 // a BIT value: its width in bytes, then its number
)

// AppendValue appends v's binary encoding to dst.
func AppendValue(dst []byte, v Value) []byte {
	switch {
	case v.IsBit():
		dst = append(dst, tagBit, v.P)
		return binary.AppendUvarint(dst, uint64(v.I))
	case v.IsBinary():
		dst = append(dst, tagBytes)
		dst = binary.AppendUvarint(dst, uint64(len(v.S)))
		return append(dst, v.S...)
	case v.isMember():
		dst = append(dst, tagMember, v.P)
		dst = binary.AppendVarint(dst, v.I)
		dst = binary.AppendUvarint(dst, uint64(len(v.S)))
		return append(dst, v.S...)
	}
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
	case tagBit:
		if len(buf) < 1 || buf[0] <= pBit || buf[0] > pBit+8 {
			return Null, nil, ErrBadEncoding
		}
		u, n := binary.Uvarint(buf[1:])
		if n <= 0 {
			return Null, nil, ErrBadEncoding
		}
		return Value{K: KindUint, I: int64(u), P: buf[0]}, buf[1+n:], nil
	case tagBytes:
		s, rest, err := decodeText(buf)
		return BytesValue(s), rest, err
	case tagMember:
		if len(buf) < 1 || (buf[0] != PEnum && buf[0] != PSet) {
			return Null, nil, ErrBadEncoding
		}
		p := buf[0]
		i, n := binary.Varint(buf[1:])
		if n <= 0 {
			return Null, nil, ErrBadEncoding
		}
		s, rest, err := decodeText(buf[1+n:])
		return Value{K: KindString, S: s, I: i, P: p}, rest, err
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

// decodeText reads a length-prefixed string.
func decodeText(buf []byte) (string, []byte, error) {
	l, n := binary.Uvarint(buf)
	if n <= 0 || uint64(len(buf)-n) < l {
		return "", nil, ErrBadEncoding
	}
	return string(buf[n : n+int(l)]), buf[n+int(l):], nil
}
