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
	t         *testing.T
	handshake []byte // the server's initial handshake
	nc        net.Conn
	pc        *packetConn
	salt      []byte
	id        uint32
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
	rc.handshake = hs
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
func (rc *rawClient) login(user, password, db string, extraCaps ...uint32) []byte {
	rc.t.Helper()
	caps := uint32(mysql.CLIENT_PROTOCOL_41 | mysql.CLIENT_SECURE_CONNECTION | mysql.CLIENT_PLUGIN_AUTH |
		mysql.CLIENT_CONNECT_WITH_DB | mysql.CLIENT_MULTI_RESULTS)
	for _, c := range extraCaps {
		caps |= c
	}
	return rc.loginCaps(user, password, db, caps)
}

// loginCaps logs in announcing exactly caps.
func (rc *rawClient) loginCaps(user, password, db string, caps uint32) []byte {
	rc.t.Helper()
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
// OK/ERR, or up to the end of a result set or prepare reply, and the
// results after it while SERVER_MORE_RESULTS_EXISTS says there are more.
func (rc *rawClient) command(payload []byte) [][]byte {
	rc.t.Helper()
	rc.pc.resetSequence()
	rc.write(payload)
	first := rc.read()
	out := [][]byte{first}
	if payload[0] == mysql.COM_STATISTICS {
		return out
	}
	if first[0] == mysql.OK_HEADER && payload[0] == mysql.COM_STMT_PREPARE {
		cols := int(binary.LittleEndian.Uint16(first[5:]))
		params := int(binary.LittleEndian.Uint16(first[7:]))
		for _, n := range []int{params, cols} {
			for i := 0; n > 0 && i < n+1; i++ {
				out = append(out, rc.read())
			}
		}
		return out
	}
	for p := first; ; {
		var status uint16
		switch {
		case p[0] == mysql.ERR_HEADER:
			return out
		case p[0] == mysql.OK_HEADER:
			d := decoder{b: p[1:]}
			d.lenEncInt()
			d.lenEncInt()
			b, _ := d.bytes(2)
			status = binary.LittleEndian.Uint16(b)
		case p[0] == mysql.EOF_HEADER && len(p) < 9:
			status = binary.LittleEndian.Uint16(p[3:])
		default: // a result set: definitions, EOF, rows, EOF
			for eofs := 0; eofs < 2; {
				q := rc.read()
				out = append(out, q)
				if q[0] == mysql.EOF_HEADER && len(q) < 9 {
					eofs++
					status = binary.LittleEndian.Uint16(q[3:])
				}
			}
		}
		if status&mysql.SERVER_MORE_RESULTS_EXISTS == 0 {
			return out
		}
		p = rc.read()
		out = append(out, p)
	}
}

// errCode is the error number of an ERR packet, 0 for anything else.
func errCode(p []byte) uint16 {
	if len(p) < 3 || p[0] != mysql.ERR_HEADER {
		return 0
	}
	return binary.LittleEndian.Uint16(p[1:])
}

// query sends COM_QUERY q and returns its reply's packets.
func (rc *rawClient) query(q string) [][]byte {
	rc.t.Helper()
	return rc.command(append([]byte{mysql.COM_QUERY}, q...))
}

// firstValue is the first column of the first row of a text result set
// ("NULL" for NULL).
func firstValue(t *testing.T, reply [][]byte) string {
	t.Helper()
	if len(reply) < 2 || errCode(reply[0]) != 0 {
		t.Fatalf("not a result set: %q", reply)
	}
	n := int(reply[0][0])
	row := reply[1+n+1] // count, n definitions, EOF, then the row
	if row[0] == 0xfb {
		return "NULL"
	}
	d := decoder{b: row}
	v, ok := d.lenEncBytes()
	if !ok {
		t.Fatalf("bad row %q", row)
	}
	return string(v)
}
