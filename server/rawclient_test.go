package server

import (
	"encoding/binary"
	"net"
	"testing"
	"time"

	"github.com/go-mysql-org/go-mysql/mysql"
)

// rawClient speaks the protocol byte by byte, to send what no driver
// would: truncated and lying packets.
type rawClient struct {
	t    *testing.T
	nc   net.Conn
	pc   *packetConn
	salt []byte
	id   uint32
}

// dialRaw connects and reads the initial handshake.
func dialRaw(t *testing.T, addr string) *rawClient {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	_ = nc.SetDeadline(time.Now().Add(30 * time.Second))
	rc := &rawClient{t: t, nc: nc, pc: newPacketConn(nc)}
	hs := rc.read()
	if len(hs) < 40 || hs[0] != 10 {
		t.Fatalf("initial handshake %q", hs)
	}
	d := decoder{b: hs[1:]}
	if _, ok := d.nulString(); !ok {
		t.Fatalf("initial handshake %q", hs)
	}
	rc.id, _ = d.uint32()
	part1, _ := d.bytes(8)
	d.skip(1 + 2 + 1 + 2 + 2 + 1 + 10)
	part2, _ := d.bytes(12)
	rc.salt = append(append([]byte{}, part1...), part2...)
	return rc
}

// handshakeStatus is the status flags of an initial handshake packet.
func handshakeStatus(hs []byte) uint16 {
	d := decoder{b: hs[1:]}
	d.nulString()
	d.skip(4 + 8 + 1 + 2 + 1)
	b, _ := d.bytes(2)
	return binary.LittleEndian.Uint16(b)
}

func (rc *rawClient) read() []byte {
	rc.t.Helper()
	b, err := rc.pc.readPacket()
	if err != nil {
		rc.t.Fatalf("read: %v", err)
	}
	return b
}

func (rc *rawClient) write(payload []byte) {
	rc.t.Helper()
	if err := rc.pc.writePacket(payload); err != nil {
		rc.t.Fatal(err)
	}
	if err := rc.pc.flush(); err != nil {
		rc.t.Fatal(err)
	}
}

// login answers the handshake with mysql_native_password.
func (rc *rawClient) login(user, password, db string) []byte {
	rc.t.Helper()
	caps := uint32(mysql.CLIENT_PROTOCOL_41 | mysql.CLIENT_SECURE_CONNECTION | mysql.CLIENT_PLUGIN_AUTH |
		mysql.CLIENT_CONNECT_WITH_DB | mysql.CLIENT_MULTI_RESULTS)
	b := binary.LittleEndian.AppendUint32(nil, caps)
	b = binary.LittleEndian.AppendUint32(b, 1<<24)
	b = append(b, charsetUTF8MB4)
	b = append(b, make([]byte, 23)...)
	b = append(append(b, user...), 0)
	auth := mysql.CalcPassword(rc.salt, []byte(password))
	b = append(append(b, byte(len(auth))), auth...)
	b = append(append(b, db...), 0)
	b = append(append(b, mysql.AUTH_NATIVE_PASSWORD...), 0)
	rc.write(b)
	reply := rc.read()
	rc.pc.resetSequence()
	return reply
}

// command sends one command and returns its reply's packets: one for
// OK/ERR, or up to the end of a result set or prepare reply.
func (rc *rawClient) command(payload []byte) [][]byte {
	rc.t.Helper()
	rc.pc.resetSequence()
	rc.write(payload)
	first := rc.read()
	out := [][]byte{first}
	eofs := 0
	switch {
	case first[0] == mysql.OK_HEADER && payload[0] == mysql.COM_STMT_PREPARE:
		cols := int(binary.LittleEndian.Uint16(first[5:]))
		params := int(binary.LittleEndian.Uint16(first[7:]))
		for _, n := range []int{params, cols} {
			if n == 0 {
				continue
			}
			for range n + 1 {
				out = append(out, rc.read())
			}
		}
	case first[0] == mysql.OK_HEADER || first[0] == mysql.ERR_HEADER || first[0] == mysql.EOF_HEADER:
	case payload[0] == mysql.COM_STATISTICS:
	default: // a result set: definitions, EOF, rows, EOF
		for eofs < 2 {
			p := rc.read()
			out = append(out, p)
			if p[0] == mysql.EOF_HEADER && len(p) < 9 {
				eofs++
			}
		}
	}
	return out
}

// errCode is the error number of an ERR packet, 0 for anything else.
func errCode(p []byte) uint16 {
	if len(p) < 3 || p[0] != mysql.ERR_HEADER {
		return 0
	}
	return binary.LittleEndian.Uint16(p[1:])
}
