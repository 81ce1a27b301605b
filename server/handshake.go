package server

import (
	"bytes"
	"encoding/binary"

	"github.com/go-mysql-org/go-mysql/mysql"
)

// serverCapabilities are the capability flags plrun announces, and so the
// most a client may use (CLIENT_LOCAL_FILES: LOAD DATA LOCAL, localinfile.go).
// No compression, no old EOF-less replies. CLIENT_SSL is added when TLS
// is configured (Server.capabilities, tls.go).
// CLIENT_INTERACTIVE: such a client waits interactive_timeout (idle.go).
const serverCapabilities = mysql.CLIENT_LONG_PASSWORD | mysql.CLIENT_FOUND_ROWS | mysql.CLIENT_LONG_FLAG |
	mysql.CLIENT_CONNECT_WITH_DB | mysql.CLIENT_PROTOCOL_41 | mysql.CLIENT_TRANSACTIONS |
	mysql.CLIENT_SECURE_CONNECTION | mysql.CLIENT_MULTI_STATEMENTS | mysql.CLIENT_MULTI_RESULTS |
	mysql.CLIENT_PS_MULTI_RESULTS | mysql.CLIENT_PLUGIN_AUTH | mysql.CLIENT_CONNECT_ATTRS |
	mysql.CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA | mysql.CLIENT_LOCAL_FILES | mysql.CLIENT_INTERACTIVE

// initialHandshake is Protocol::HandshakeV10 for connection id connID,
// with the 20-byte scramble salt and status flags status.
// caps are the capability flags announced.
func initialHandshake(connID uint32, salt []byte, status uint16, authPlugin string, caps uint32) []byte {
	b := []byte{10}
	b = append(b, ServerVersion...)
	b = append(b, 0)
	b = binary.LittleEndian.AppendUint32(b, connID)
	b = append(b, salt[:8]...)
	b = append(b, 0)
	b = binary.LittleEndian.AppendUint16(b, uint16(caps&0xffff))
	b = append(b, charsetUTF8MB4)
	b = binary.LittleEndian.AppendUint16(b, status)
	b = binary.LittleEndian.AppendUint16(b, uint16(caps>>16))
	b = append(b, byte(len(salt)+1))
	b = append(b, make([]byte, 10)...)
	b = append(b, salt[8:]...)
	b = append(b, 0)
	b = append(b, authPlugin...)
	return append(b, 0)
}

// handshakeResponse is what a client's Protocol::HandshakeResponse41 says.
type handshakeResponse struct {
	capability uint32
	user       string
	auth       []byte // the auth-response; empty when no password was given
	db         string // "" is no default database
	plugin     string // "" when the client did not name one
	// sslRequest: the packet was an SSLRequest (the response's fixed
	// header alone, with CLIENT_SSL): TLS starts next, and the real
	// response follows over it.
	sslRequest bool
}

// errHandshake answers a handshake response plrun cannot read.
var errHandshake = mysql.NewError(mysql.ER_HANDSHAKE_ERROR, "Bad handshake")

// parseHandshakeResponse decodes HandshakeResponse41. Every length is
// checked against what is left of the packet: any bytes are either a
// response or errHandshake, never a panic.
func parseHandshakeResponse(data []byte) (handshakeResponse, error) {
	var r handshakeResponse
	d := decoder{b: data}
	capability, ok := d.uint32()
	if !ok || capability&mysql.CLIENT_PROTOCOL_41 == 0 {
		return r, errHandshake
	}
	r.capability = capability
	// max packet size(4), character set(1), filler(23)
	if !d.skip(4 + 1 + 23) {
		return r, errHandshake
	}
	if d.done() {
		// An SSLRequest is just this header; without CLIENT_SSL it is a
		// response without a user name.
		if capability&mysql.CLIENT_SSL == 0 {
			return r, errHandshake
		}
		r.sslRequest = true
		return r, nil
	}
	user, ok := d.nulString()
	if !ok {
		return r, errHandshake
	}
	r.user = user
	switch {
	case capability&mysql.CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA != 0:
		r.auth, ok = d.lenEncBytes()
	case capability&mysql.CLIENT_SECURE_CONNECTION != 0:
		var n byte
		if n, ok = d.byte(); ok {
			r.auth, ok = d.bytes(int(n))
		}
	default:
		var s string
		s, ok = d.nulString()
		r.auth = []byte(s)
	}
	if !ok {
		return r, errHandshake
	}
	if capability&mysql.CLIENT_CONNECT_WITH_DB != 0 && !d.done() {
		if r.db, ok = d.nulString(); !ok {
			return r, errHandshake
		}
	}
	if capability&mysql.CLIENT_PLUGIN_AUTH != 0 && !d.done() {
		// Some clients end the packet with the name without its NUL.
		r.plugin, _ = d.nulStringOrRest()
	}
	// Connection attributes (CLIENT_CONNECT_ATTRS) are not used.
	return r, nil
}

// changeUserRequest is what COM_CHANGE_USER says.
type changeUserRequest struct {
	user   string
	auth   []byte
	db     string
	plugin string
}

// parseChangeUser decodes COM_CHANGE_USER's payload (after the command
// byte) for a client with capabilities capability.
func parseChangeUser(data []byte, capability uint32) (changeUserRequest, error) {
	var r changeUserRequest
	d := decoder{b: data}
	var ok bool
	if r.user, ok = d.nulString(); !ok {
		return r, errMalformed
	}
	if capability&mysql.CLIENT_SECURE_CONNECTION != 0 {
		var n byte
		if n, ok = d.byte(); ok {
			r.auth, ok = d.bytes(int(n))
		}
	} else {
		var s string
		s, ok = d.nulString()
		r.auth = []byte(s)
	}
	if !ok {
		return r, errMalformed
	}
	if d.done() {
		return r, nil
	}
	if r.db, ok = d.nulString(); !ok {
		return r, errMalformed
	}
	if d.done() {
		return r, nil
	}
	if !d.skip(2) { // character set
		return r, errMalformed
	}
	if capability&mysql.CLIENT_PLUGIN_AUTH != 0 && !d.done() {
		r.plugin, _ = d.nulStringOrRest()
	}
	return r, nil
}

// decoder reads protocol fields from a packet; every read reports
// whether the packet held it.
type decoder struct {
	b   []byte
	pos int
}

func (d *decoder) done() bool { return d.pos >= len(d.b) }

func (d *decoder) skip(n int) bool {
	if n < 0 || n > len(d.b)-d.pos {
		return false
	}
	d.pos += n
	return true
}

func (d *decoder) bytes(n int) ([]byte, bool) {
	start := d.pos
	if !d.skip(n) {
		return nil, false
	}
	return d.b[start:d.pos], true
}

func (d *decoder) byte() (byte, bool) {
	b, ok := d.bytes(1)
	if !ok {
		return 0, false
	}
	return b[0], true
}

func (d *decoder) uint32() (uint32, bool) {
	b, ok := d.bytes(4)
	if !ok {
		return 0, false
	}
	return binary.LittleEndian.Uint32(b), true
}

func (d *decoder) nulString() (string, bool) {
	i := bytes.IndexByte(d.b[d.pos:], 0)
	if i < 0 {
		return "", false
	}
	s := string(d.b[d.pos : d.pos+i])
	d.pos += i + 1
	return s, true
}

func (d *decoder) nulStringOrRest() (string, bool) {
	if s, ok := d.nulString(); ok {
		return s, true
	}
	s := string(d.b[d.pos:])
	d.pos = len(d.b)
	return s, true
}

// lenEncInt reads a length-encoded integer; NULL (0xfb) and the reserved
// 0xff are not lengths.
func (d *decoder) lenEncInt() (uint64, bool) {
	first, ok := d.byte()
	if !ok {
		return 0, false
	}
	var n int
	switch first {
	case 0xfc:
		n = 2
	case 0xfd:
		n = 3
	case 0xfe:
		n = 8
	case 0xfb, 0xff:
		return 0, false
	default:
		return uint64(first), true
	}
	b, ok := d.bytes(n)
	if !ok {
		return 0, false
	}
	var v uint64
	for i := n - 1; i >= 0; i-- {
		v = v<<8 | uint64(b[i])
	}
	return v, true
}

// lenEncBytes reads a length-encoded string, checking the length against
// what is left before converting it (a length of 2^64-1 must not wrap).
func (d *decoder) lenEncBytes() ([]byte, bool) {
	n, ok := d.lenEncInt()
	if !ok || n > uint64(len(d.b)-d.pos) {
		return nil, false
	}
	return d.bytes(int(n))
}
