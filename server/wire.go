package server

import (
	"encoding/binary"

	"github.com/go-mysql-org/go-mysql/mysql"
)

// wire is one connection's protocol state after the connection phase:
// the capabilities both sides agreed on, the status flags replies carry,
// and the reply encoders (OK, ERR, EOF, result sets, prepare replies).
type wire struct {
	*packetConn
	capability uint32 // what the client announced, less what plrun does not offer
	status     uint16 // SERVER_STATUS_* sent with every OK and EOF
	user       string // the login name
}

func (w *wire) hasCapability(flag uint32) bool { return w.capability&flag != 0 }
func (w *wire) setStatus(flag uint16)          { w.status |= flag }
func (w *wire) unsetStatus(flag uint16)        { w.status &^= flag }

// writeOK writes an OK packet for r (nil: nothing affected).
func (w *wire) writeOK(r *mysql.Result) error { return w.writeOKInfo(r, "") }

// writeOKInfo writes an OK packet for r with MySQL's info string ("Rows
// matched: 1  Changed: 1  Warnings: 0", "Records: 3  Duplicates: 0
// Warnings: 0"), which the mysql client prints under "Query OK". MySQL's
// and MariaDB's servers write it length-encoded (net_store_data), and
// libmariadb reads it so, with or without CLIENT_SESSION_TRACK.
func (w *wire) writeOKInfo(r *mysql.Result, info string) error {
	b := []byte{mysql.OK_HEADER}
	var affected, insertID uint64
	var warnings uint16
	if r != nil {
		affected, insertID, warnings = r.AffectedRows, r.InsertId, r.Warnings
	}
	b = append(b, mysql.PutLengthEncodedInt(affected)...)
	b = append(b, mysql.PutLengthEncodedInt(insertID)...)
	b = binary.LittleEndian.AppendUint16(b, w.status)
	b = binary.LittleEndian.AppendUint16(b, warnings)
	if info != "" {
		b = append(b, mysql.PutLengthEncodedString([]byte(info))...)
	}
	return w.writePacket(b)
}

// writeError writes an ERR packet.
func (w *wire) writeError(e *mysql.MyError) error {
	b := []byte{mysql.ERR_HEADER, byte(e.Code), byte(e.Code >> 8), '#'}
	state := e.State
	if len(state) != 5 {
		state = "HY000"
	}
	b = append(b, state...)
	b = append(b, e.Message...)
	return w.writePacket(b)
}

// writeEOF writes an EOF packet carrying warnings and the status flags.
func (w *wire) writeEOF(warnings uint16) error {
	b := []byte{mysql.EOF_HEADER}
	b = binary.LittleEndian.AppendUint16(b, warnings)
	b = binary.LittleEndian.AppendUint16(b, w.status)
	return w.writePacket(b)
}

// writeFields writes column definitions followed by an EOF.
func (w *wire) writeFields(fields []*mysql.Field) error {
	for _, f := range fields {
		if err := w.writePacket(f.Dump()); err != nil {
			return err
		}
	}
	return w.writeEOF(0)
}

// writeResult writes r: an OK with info, or a result set (column count,
// column definitions, EOF, rows, EOF).
func (w *wire) writeResult(r *mysql.Result, info string) error {
	if r == nil || !r.HasResultset() {
		return w.writeOKInfo(r, info)
	}
	rs := r.Resultset
	if err := w.writePacket(mysql.PutLengthEncodedInt(uint64(len(rs.Fields)))); err != nil {
		return err
	}
	if err := w.writeFields(rs.Fields); err != nil {
		return err
	}
	for _, row := range rs.RowDatas {
		if err := w.writePacket(row); err != nil {
			return err
		}
	}
	return w.writeEOF(r.Warnings)
}

// prepareReply is COM_STMT_PREPARE's answer: the statement id, one
// definition per parameter and one per result column.
type prepareReply struct {
	id      uint32
	params  int
	columns []*mysql.Field
}

var paramField = &mysql.Field{Name: []byte("?"), Type: mysql.MYSQL_TYPE_VAR_STRING, Charset: charsetBinary}

func (w *wire) writePrepare(p *prepareReply) error {
	b := []byte{mysql.OK_HEADER}
	b = binary.LittleEndian.AppendUint32(b, p.id)
	b = binary.LittleEndian.AppendUint16(b, uint16(len(p.columns)))
	b = binary.LittleEndian.AppendUint16(b, uint16(p.params))
	b = append(b, 0, 0, 0) // filler, warning count
	if err := w.writePacket(b); err != nil {
		return err
	}
	if p.params > 0 {
		params := make([]*mysql.Field, p.params)
		for i := range params {
			params[i] = paramField
		}
		if err := w.writeFields(params); err != nil {
			return err
		}
	}
	if len(p.columns) > 0 {
		return w.writeFields(p.columns)
	}
	return nil
}
