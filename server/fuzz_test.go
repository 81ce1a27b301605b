package server

import (
	"bytes"
	"encoding/binary"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plrun/plrun/engine"
	"github.com/plrun/plrun/runtime/builtin"

	"github.com/go-mysql-org/go-mysql/mysql"
)

// Fuzz targets for every byte plrun reads from a client: the handshake
// response (parsed, and through the whole connection phase), each COM_*
// command on a logged-in connection, COM_CHANGE_USER's payload and the
// binary protocol's parameters. `make fuzz` runs them; each is seeded with
// the inputs that once crashed the server (issue 10).

// truncatedHandshakeResponse is issue 10's first crash: a user name
// without its NUL terminator (go-mysql's readUserName sliced past the end).
func truncatedHandshakeResponse() []byte {
	caps := uint32(mysql.CLIENT_PROTOCOL_41 | mysql.CLIENT_SECURE_CONNECTION | mysql.CLIENT_PLUGIN_AUTH | mysql.CLIENT_CONNECT_WITH_DB)
	b := binary.LittleEndian.AppendUint32(nil, caps)
	b = binary.LittleEndian.AppendUint32(b, 1<<24)
	b = append(b, charsetUTF8MB4)
	b = append(b, make([]byte, 23)...)
	return append(b, "root"...)
}

// hugeStringExecute is issue 10's second crash: COM_STMT_EXECUTE of
// statement 1 (one parameter) whose VARCHAR value claims a length-encoded
// length of 2^64-1 (go-mysql's LengthEncodedString wrapped the bound).
func hugeStringExecute(stmtID uint32) []byte {
	b := []byte{mysql.COM_STMT_EXECUTE}
	b = binary.LittleEndian.AppendUint32(b, stmtID)
	b = append(b, 0)          // flags
	b = append(b, 1, 0, 0, 0) // iteration count
	b = append(b, 0)          // NULL bitmap
	b = append(b, 1)          // new params bound
	b = append(b, mysql.MYSQL_TYPE_VAR_STRING, 0)
	return append(b, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff)
}

// pastEndStringExecute claims a 3-byte length one past the packet's end.
func pastEndStringExecute(stmtID uint32) []byte {
	b := hugeStringExecute(stmtID)
	b = b[:len(b)-9]
	return append(b, 0xfc, 4, 0, 'a', 'b', 'c')
}

func FuzzHandshakeResponse(f *testing.F) {
	f.Add(truncatedHandshakeResponse())
	f.Add(append(truncatedHandshakeResponse(), 0, 20))
	f.Add(append(truncatedHandshakeResponse(), 0, 0, 't', 'e', 's', 't', 0, 'm', 'y'))
	f.Add([]byte{0x85, 0xa6, 0xff, 0x01})
	f.Add(sslRequest(rawCaps)) // to a server without TLS
	srv, err := New(Config{Engine: fuzzEngine(f), Users: Users{"root": "root"}, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if r, err := parseHandshakeResponse(data); err == nil && strings.IndexByte(r.user, 0) >= 0 {
			t.Fatalf("user %q holds a NUL", r.user)
		}
		// The whole connection phase: the bytes as the client's response.
		before := srv.Panics()
		var logged bytes.Buffer
		srv.cfg.Logger = slog.New(slog.NewTextHandler(&logged, nil))
		srv.ServeConn(newScriptConn(frame(1, data)))
		if srv.Panics() != before {
			t.Fatalf("connection phase panicked:\n%s", logged.String())
		}
	})
}

func FuzzChangeUser(f *testing.F) {
	f.Add([]byte("root\x00\x14"), uint32(mysql.CLIENT_SECURE_CONNECTION|mysql.CLIENT_PLUGIN_AUTH))
	f.Add([]byte("root\x00\x00test\x00\x2d\x00mysql_native_password\x00"), uint32(mysql.CLIENT_SECURE_CONNECTION|mysql.CLIENT_PLUGIN_AUTH))
	f.Add([]byte("root"), uint32(0))
	f.Fuzz(func(t *testing.T, data []byte, caps uint32) {
		_, _ = parseChangeUser(data, caps)
	})
}

func FuzzExecuteParams(f *testing.F) {
	crash := hugeStringExecute(1)[5:] // after the command byte and statement id
	f.Add(uint8(1), crash)
	f.Add(uint8(1), pastEndStringExecute(1)[5:])
	f.Add(uint8(2), []byte{0, 1, 0, 0, 0, 0, 1, mysql.MYSQL_TYPE_LONGLONG, 0, mysql.MYSQL_TYPE_DATETIME, 0, 1, 0, 0, 0, 0, 0, 0, 0, 7, 0xe8, 7, 1, 2, 3, 4, 5})
	f.Add(uint8(1), []byte{0, 1, 0, 0, 0, 0, 1, mysql.MYSQL_TYPE_TIME, 0, 12, 1, 1, 0, 0, 0, 2, 3, 4, 5, 0, 0, 0})
	f.Fuzz(func(t *testing.T, params uint8, data []byte) {
		st := &preparedStmt{params: int(params % 70)}
		args, err := st.executeArgs(data)
		if err == nil && len(args) != st.params {
			t.Fatalf("%d args for %d parameters", len(args), st.params)
		}
		if len(data) > 2 {
			_, n, err := decodeParam(data[0], data[1]&1 != 0, data[2:])
			if err == nil && (n < 0 || n > len(data)-2) {
				t.Fatalf("decodeParam took %d of %d bytes", n, len(data)-2)
			}
		}
	})
}

// FuzzCommands sends a logged-in connection a series of commands: the
// input is split into packets of [length uint16][payload], each payload
// a command byte and its data, as the client sends them.
func FuzzCommands(f *testing.F) {
	seed := func(cmds ...[]byte) []byte {
		var b []byte
		for _, c := range cmds {
			b = binary.LittleEndian.AppendUint16(b, uint16(len(c)))
			b = append(b, c...)
		}
		return b
	}
	cmd := func(c byte, data string) []byte { return append([]byte{c}, data...) }
	prepare := cmd(mysql.COM_STMT_PREPARE, "SELECT ?")
	f.Add(seed([]byte{}, cmd(mysql.COM_QUERY, "SELECT 1"))) // an empty packet
	f.Add(seed(prepare, hugeStringExecute(1)))
	f.Add(seed(prepare, pastEndStringExecute(1)))
	f.Add(seed(cmd(mysql.COM_QUERY, "CREATE TABLE IF NOT EXISTS f (id INT PRIMARY KEY, c VARCHAR(10))"),
		cmd(mysql.COM_STMT_PREPARE, "INSERT INTO f VALUES (?, ?)"),
		append(cmd(mysql.COM_STMT_SEND_LONG_DATA, "\x01\x00\x00\x00\x01\x00"), "long"...),
		cmd(mysql.COM_STMT_RESET, "\x01\x00\x00\x00"), cmd(mysql.COM_STMT_CLOSE, "\x01\x00\x00\x00")))
	f.Add(seed(cmd(mysql.COM_QUERY, "SELECT 1\x00"), cmd(mysql.COM_QUERY, "BEGIN; SELECT 1; COMMIT"),
		cmd(mysql.COM_SET_OPTION, "\x01\x00"), cmd(mysql.COM_SET_OPTION, "\x07")))
	f.Add(seed(cmd(mysql.COM_INIT_DB, "test"), cmd(mysql.COM_FIELD_LIST, "f\x00%"), cmd(mysql.COM_STATISTICS, ""),
		cmd(mysql.COM_PING, ""), cmd(mysql.COM_RESET_CONNECTION, ""), cmd(mysql.COM_PROCESS_KILL, "\xff\xff")))
	f.Add(seed(cmd(mysql.COM_CHANGE_USER, "root\x00\x14abcdefghijklmnopqrst\x00test\x00\x2d\x00mysql_native_password\x00"),
		cmd(mysql.COM_CHANGE_USER, "root"), cmd(0x99, "x"), cmd(mysql.COM_QUIT, "")))
	srv, err := New(Config{Engine: fuzzEngine(f), Users: Users{"root": "root"}, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// Through the command loop, as the client's packets...
		var script []byte
		for rest := data; len(rest) > 0; {
			var pkt []byte
			pkt, rest = nextCommand(rest)
			script = append(script, frame(0, pkt)...)
		}
		before := srv.Panics()
		var logged bytes.Buffer
		srv.cfg.Logger = slog.New(slog.NewTextHandler(&logged, nil))
		loop := newLoggedInConn(srv)
		loop.nc = newScriptConn(script)
		loop.wire.packetConn = newPacketConn(loop.nc)
		func() {
			defer srv.recoverConn(loop)
			defer loop.session.Close()
			loop.serve()
		}()
		if srv.Panics() != before {
			t.Fatalf("command loop panicked:\n%s", logged.String())
		}
		// ... and each command dispatched on its own.
		c := newLoggedInConn(srv)
		defer c.session.Close()
		for len(data) > 0 {
			var pkt []byte
			pkt, data = nextCommand(data)
			quit, err := c.dispatch(pkt)
			_ = c.wire.flush()
			c.wire.resetSequence()
			if quit || err != nil || c.killed() {
				return
			}
		}
	})
}

// nextCommand splits FuzzCommands' input: [length uint16][payload].
func nextCommand(data []byte) (pkt, rest []byte) {
	n := len(data)
	if n >= 2 {
		n = min(int(binary.LittleEndian.Uint16(data)), len(data)-2)
		data = data[2:]
	}
	return data[:n], data[n:]
}

var (
	fuzzEngineOnce sync.Once
	fuzzEngineVal  *engine.Engine
)

// fuzzEngine is one engine per fuzzing process, shared by its inputs. No
// file may be read (secure_file_priv) and no statement may run long
// (max_execution_time), so that no input can stall the fuzzer.
func fuzzEngine(f *testing.F) *engine.Engine {
	fuzzEngineOnce.Do(func() {
		e, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: f.TempDir(), Settings: map[string]string{
			"secure_file_priv": "NULL", "max_execution_time": "200", "innodb_lock_wait_timeout": "1",
		}})
		if err != nil {
			f.Fatal(err)
		}
		fuzzEngineVal = e
	})
	return fuzzEngineVal
}

// newLoggedInConn is a connection past its handshake, whose replies go
// nowhere and whose reads (an auth switch) end at once.
func newLoggedInConn(srv *Server) *conn {
	c := newConn(srv, newScriptConn(nil))
	c.salt = mysql.RandomBuf(20)
	c.wire = &wire{packetConn: newPacketConn(c.sock), capability: serverCapabilities, user: "root"}
	return c
}

// frame wraps payload as one protocol packet with sequence number seq.
func frame(seq byte, payload []byte) []byte {
	n := len(payload)
	return append([]byte{byte(n), byte(n >> 8), byte(n >> 16), seq}, payload...)
}

// scriptConn is a net.Conn whose peer sent script and then closed;
// everything written to it is dropped.
type scriptConn struct{ r *bytes.Reader }

func newScriptConn(script []byte) *scriptConn { return &scriptConn{r: bytes.NewReader(script)} }

func (c *scriptConn) Read(b []byte) (int, error) {
	if c.r.Len() == 0 {
		return 0, io.EOF
	}
	return c.r.Read(b)
}
func (c *scriptConn) Write(b []byte) (int, error) { return len(b), nil }
func (c *scriptConn) Close() error                { return nil }
func (c *scriptConn) LocalAddr() net.Addr {
	return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 3306}
}
func (c *scriptConn) RemoteAddr() net.Addr {
	return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 40000}
}
func (c *scriptConn) SetDeadline(time.Time) error      { return nil }
func (c *scriptConn) SetReadDeadline(time.Time) error  { return nil }
func (c *scriptConn) SetWriteDeadline(time.Time) error { return nil }
