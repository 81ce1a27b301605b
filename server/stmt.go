package server

import (
	"encoding/binary"
	"fmt"
	"math"
	"time"

	"github.com/go-mysql-org/go-mysql/mysql"
)

// preparedStmt is one COM_STMT_PREPARE'd statement of a connection.
type preparedStmt struct {
	id         uint32
	query      string
	params     int
	paramTypes []byte            // 2 bytes per parameter, as last bound
	longData   map[uint16][]byte // COM_STMT_SEND_LONG_DATA chunks, per parameter
}

var errMalformed = mysql.NewError(mysql.ER_MALFORMED_PACKET, "Malformed communication packet")

// executeArgs decodes COM_STMT_EXECUTE's payload after the statement id:
// flags, iteration count, NULL bitmap, new-params-bound flag, types and
// values. Values become what Session.Exec binds: nil, int64, uint64,
// float64, string or time.Time.
func (st *preparedStmt) executeArgs(data []byte) ([]any, error) {
	// flags(1): cursor types are accepted and ignored: the whole result is
	// sent at once, as MySQL does for statements without a cursor.
	// iteration-count(4): always 1.
	if len(data) < 5 {
		return nil, errMalformed
	}
	pos := 5
	args := make([]any, st.params)
	if st.params == 0 {
		return args, nil
	}
	nullLen := (st.params + 7) / 8
	if len(data) < pos+nullLen+1 {
		return nil, errMalformed
	}
	nulls := data[pos : pos+nullLen]
	pos += nullLen
	if data[pos] == 1 {
		pos++
		if len(data) < pos+2*st.params {
			return nil, errMalformed
		}
		st.paramTypes = append(st.paramTypes[:0], data[pos:pos+2*st.params]...)
		pos += 2 * st.params
	} else {
		pos++
	}
	if len(st.paramTypes) != 2*st.params {
		return nil, mysql.NewError(mysql.ER_WRONG_ARGUMENTS, "parameters were never bound")
	}
	for i := range st.params {
		if nulls[i/8]&(1<<(i%8)) != 0 {
			continue
		}
		if chunk, ok := st.longData[uint16(i)]; ok {
			args[i] = string(chunk)
			continue
		}
		v, n, err := decodeParam(st.paramTypes[2*i], st.paramTypes[2*i+1]&0x80 != 0, data[pos:])
		if err != nil {
			return nil, err
		}
		args[i] = v
		pos += n
	}
	return args, nil
}

// decodeParam decodes one binary-protocol parameter value and returns it
// with the number of bytes it took.
func decodeParam(typ byte, unsigned bool, b []byte) (any, int, error) {
	need := func(n int) error {
		if len(b) < n {
			return errMalformed
		}
		return nil
	}
	signedOrNot := func(u uint64, bits uint) any {
		if unsigned {
			return u
		}
		shift := 64 - bits
		return int64(u<<shift) >> shift // sign-extend
	}
	switch typ {
	case mysql.MYSQL_TYPE_NULL:
		return nil, 0, nil
	case mysql.MYSQL_TYPE_TINY:
		if err := need(1); err != nil {
			return nil, 0, err
		}
		return signedOrNot(uint64(b[0]), 8), 1, nil
	case mysql.MYSQL_TYPE_SHORT, mysql.MYSQL_TYPE_YEAR:
		if err := need(2); err != nil {
			return nil, 0, err
		}
		return signedOrNot(uint64(binary.LittleEndian.Uint16(b)), 16), 2, nil
	case mysql.MYSQL_TYPE_INT24, mysql.MYSQL_TYPE_LONG:
		if err := need(4); err != nil {
			return nil, 0, err
		}
		return signedOrNot(uint64(binary.LittleEndian.Uint32(b)), 32), 4, nil
	case mysql.MYSQL_TYPE_LONGLONG:
		if err := need(8); err != nil {
			return nil, 0, err
		}
		return signedOrNot(binary.LittleEndian.Uint64(b), 64), 8, nil
	case mysql.MYSQL_TYPE_FLOAT:
		if err := need(4); err != nil {
			return nil, 0, err
		}
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(b))), 4, nil
	case mysql.MYSQL_TYPE_DOUBLE:
		if err := need(8); err != nil {
			return nil, 0, err
		}
		return math.Float64frombits(binary.LittleEndian.Uint64(b)), 8, nil
	case mysql.MYSQL_TYPE_DATE, mysql.MYSQL_TYPE_DATETIME, mysql.MYSQL_TYPE_TIMESTAMP:
		return decodeDatetime(b)
	case mysql.MYSQL_TYPE_TIME:
		return decodeTime(b)
	}
	// Strings, DECIMAL, BLOBs, ENUM, SET, JSON ...: length-encoded bytes,
	// whose length is checked against the packet before it is used (a
	// length of 2^64-1 must be malformed, not a wrapped slice bound).
	// plrun has no binary string type, so they bind as text.
	d := decoder{b: b}
	s, ok := d.lenEncBytes()
	if !ok {
		return nil, 0, errMalformed
	}
	return string(s), d.pos, nil
}

// decodeDatetime reads MYSQL_TYPE_DATE/DATETIME's binary form: a length
// byte (0, 4, 7 or 11) and year(2) month day [hour minute second [micro(4)]].
func decodeDatetime(b []byte) (any, int, error) {
	if len(b) < 1 || len(b) < 1+int(b[0]) {
		return nil, 0, errMalformed
	}
	n := int(b[0])
	p := b[1 : 1+n]
	var year, month, day, hour, minute, sec, micro int
	switch n {
	case 0:
		return "0000-00-00 00:00:00", 1, nil
	case 11:
		micro = int(binary.LittleEndian.Uint32(p[7:11]))
		fallthrough
	case 7:
		hour, minute, sec = int(p[4]), int(p[5]), int(p[6])
		fallthrough
	case 4:
		year, month, day = int(binary.LittleEndian.Uint16(p[0:2])), int(p[2]), int(p[3])
	default:
		return nil, 0, errMalformed
	}
	return time.Date(year, time.Month(month), day, hour, minute, sec, micro*1000, time.UTC), 1 + n, nil
}

// decodeTime reads MYSQL_TYPE_TIME's binary form (length 0, 8 or 12) and,
// plrun having no TIME type, binds it as its text "[-]hhh:mm:ss[.ffffff]".
func decodeTime(b []byte) (any, int, error) {
	if len(b) < 1 || len(b) < 1+int(b[0]) {
		return nil, 0, errMalformed
	}
	n := int(b[0])
	p := b[1 : 1+n]
	if n == 0 {
		return "00:00:00", 1, nil
	}
	if n != 8 && n != 12 {
		return nil, 0, errMalformed
	}
	sign := ""
	if p[0] == 1 {
		sign = "-"
	}
	hours := int(binary.LittleEndian.Uint32(p[1:5]))*24 + int(p[5])
	s := fmt.Sprintf("%s%02d:%02d:%02d", sign, hours, p[6], p[7])
	if n == 12 {
		s += fmt.Sprintf(".%06d", binary.LittleEndian.Uint32(p[8:12]))
	}
	return s, 1 + n, nil
}
