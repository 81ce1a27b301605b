package server

import (
	"bytes"
	"strings"
	"testing"

	"github.com/go-mysql-org/go-mysql/mysql"
)

// Issue 10: no bytes a client sends may crash the server.

// TestTruncatedHandshakeResponse: a user name without its NUL before login
// is answered 1043 Bad handshake, and the server goes on serving.
func TestTruncatedHandshakeResponse(t *testing.T) {
	ts := startServer(t, Config{}, nil)
	rc := dialRaw(t, ts.addr)
	rc.write(truncatedHandshakeResponse())
	if code := errCode(rc.read()); code != mysql.ER_HANDSHAKE_ERROR {
		t.Fatalf("truncated handshake response answered with error %d, want 1043", code)
	}
	mustExec(t, ts.open(t), "SELECT 1")
	if n := ts.srv.Panics(); n != 0 {
		t.Fatalf("%d panics", n)
	}
}

// TestStringParamLengthPastPacket: COM_STMT_EXECUTE whose string parameter
// claims 2^64-1 bytes, or one more than the packet holds, is 1835
// Malformed packet, and the connection goes on.
func TestStringParamLengthPastPacket(t *testing.T) {
	ts := startServer(t, Config{}, nil)
	rc := dialRaw(t, ts.addr)
	if ok := rc.login("root", "root", "test"); ok[0] != mysql.OK_HEADER {
		t.Fatalf("login: %q", ok)
	}
	prep := rc.command(append([]byte{mysql.COM_STMT_PREPARE}, "SELECT ?"...))
	if prep[0][0] != mysql.OK_HEADER {
		t.Fatalf("prepare: %q", prep[0])
	}
	for _, execute := range [][]byte{hugeStringExecute(1), pastEndStringExecute(1)} {
		if code := errCode(rc.command(execute)[0]); code != mysql.ER_MALFORMED_PACKET {
			t.Fatalf("execute with a lying string length answered %d, want 1835", code)
		}
	}
	rs := rc.command(append([]byte{mysql.COM_QUERY}, "SELECT 41+1"...))
	if !bytes.Contains(bytes.Join(rs, nil), []byte("42")) {
		t.Fatalf("SELECT after the malformed executes: %q", rs)
	}
}

// TestPanicEndsOneConnection: a panic on one connection's goroutine
// closes that connection alone, is counted and logged with its stack, and
// rolls back its transaction: the row it had locked is free at once.
func TestPanicEndsOneConnection(t *testing.T) {
	testHookDispatch = func(packet []byte) {
		if string(packet[1:]) == "SELECT 'panic now'" {
			panic("injected by the test")
		}
	}
	t.Cleanup(func() { testHookDispatch = nil })
	var logged logBuffer
	ts := startServer(t, Config{}, map[string]string{"innodb_lock_wait_timeout": "1"})
	ts.srv.cfg.Logger = logged.logger()
	db := ts.open(t)
	db.SetMaxIdleConns(4)
	mustExec(t, db, "CREATE TABLE p (id INT PRIMARY KEY, k INT)")
	mustExec(t, db, "INSERT INTO p VALUES (1, 0)")
	victim, err := db.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"BEGIN", "UPDATE p SET k = 1 WHERE id = 1"} {
		if _, err := victim.ExecContext(t.Context(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if _, err := victim.ExecContext(t.Context(), "SELECT 'panic now'"); err == nil {
		t.Fatal("the panicking statement succeeded")
	}
	victim.Close()
	// Lock wait timeout is 1 s: a lock left by the panic would fail this.
	mustExec(t, db, "UPDATE p SET k = 2 WHERE id = 1")
	var k int
	if err := db.QueryRow("SELECT k FROM p WHERE id = 1").Scan(&k); err != nil || k != 2 {
		t.Fatalf("k = %d, %v; want 2 (the panicked transaction rolled back)", k, err)
	}
	if n := ts.srv.Panics(); n != 1 {
		t.Fatalf("Panics() = %d, want 1", n)
	}
	// One JSON line, with the panic and its stack as attributes.
	ev := logged.one(t, "connection ended by a panic")
	if ev["level"] != "ERROR" || ev["panic"] != "injected by the test" || !strings.Contains(ev["stack"].(string), "goroutine") || ev["panics"].(float64) != 1 {
		t.Fatalf("panic line %v", ev)
	}
}

// TestPacketPastMaxAllowedPacket: a command longer than the global
// max_allowed_packet is 1153 and ends the connection before the server
// reads (or allocates) it; a larger setting lets it through.
func TestPacketPastMaxAllowedPacket(t *testing.T) {
	ts := startServer(t, Config{}, map[string]string{"max_allowed_packet": "1048576"})
	big := append([]byte{mysql.COM_QUERY}, "SELECT '"...)
	big = append(append(big, bytes.Repeat([]byte("x"), 2<<20)...), '\'')
	rc := dialRaw(t, ts.addr)
	rc.login("root", "root", "test")
	// The header alone: the server refuses on it, and closes without
	// unread bytes (which would reset the connection under the reply).
	n := len(big)
	if _, err := rc.nc.Write([]byte{byte(n), byte(n >> 8), byte(n >> 16), 0}); err != nil {
		t.Fatal(err)
	}
	rc.pc.seq = 1
	if code := errCode(rc.read()); code != mysql.ER_NET_PACKET_TOO_LARGE {
		t.Fatalf("a 2 MiB command under max_allowed_packet=1M: error %d, want 1153", code)
	}
	mustExec(t, ts.open(t), "SET GLOBAL max_allowed_packet = 4194304")
	rc = dialRaw(t, ts.addr)
	rc.login("root", "root", "test")
	if got := firstValue(t, rc.command(big)); len(got) != 2<<20 {
		t.Fatalf("a 2 MiB command under max_allowed_packet=4M returned %d bytes", len(got))
	}
}
