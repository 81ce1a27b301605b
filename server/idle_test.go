package server

import (
	"errors"
	"io"
	"testing"
	"time"

	"github.com/go-mysql-org/go-mysql/mysql"
)

// A client idle past its wait_timeout is disconnected, as MariaDB does;
// an interactive one starts with interactive_timeout as its wait_timeout.
func TestWaitTimeoutClosesIdleConnection(t *testing.T) {
	ts := startServer(t, Config{}, nil)
	rc := dialRaw(t, ts.addr)
	if reply := rc.login("root", "root", ""); reply[0] != 0 {
		t.Fatalf("login: %q", reply)
	}
	if v := firstValue(t, rc.query("SELECT @@wait_timeout")); v != "28800" {
		t.Fatalf("@@wait_timeout = %s, want 28800", v)
	}
	rc.query("SET wait_timeout = 1")
	expectClosed(t, rc)

	admin := dialRaw(t, ts.addr)
	admin.login("root", "root", "")
	admin.query("SET GLOBAL interactive_timeout = 1")
	ic := dialRaw(t, ts.addr)
	if reply := ic.login("root", "root", "", mysql.CLIENT_INTERACTIVE); reply[0] != 0 {
		t.Fatalf("login: %q", reply)
	}
	if v := firstValue(t, ic.query("SELECT @@wait_timeout")); v != "1" {
		t.Fatalf("interactive @@wait_timeout = %s, want 1", v)
	}
	expectClosed(t, ic)
	// a non-interactive login keeps wait_timeout's global value
	nc := dialRaw(t, ts.addr)
	nc.login("root", "root", "")
	if v := firstValue(t, nc.query("SELECT @@wait_timeout")); v != "28800" {
		t.Fatalf("@@wait_timeout = %s, want 28800", v)
	}
}

// expectClosed waits (at most the dial's 30 s deadline) for the server to
// close rc's idle connection.
func expectClosed(t *testing.T, rc *rawClient) {
	t.Helper()
	start := time.Now()
	_, err := rc.pc.readPacket()
	if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("idle connection: read %v, want the server to close it", err)
	}
	if time.Since(start) < 900*time.Millisecond {
		t.Fatalf("closed after %v, before wait_timeout", time.Since(start))
	}
}

// A client that stops reading a reply is disconnected after
// net_write_timeout, as in MariaDB: the reply's writes do not wait for
// ever (nor hold the session's worker).
func TestNetWriteTimeoutDropsStalledReader(t *testing.T) {
	ts := startServer(t, Config{}, nil)
	rc := dialRaw(t, ts.addr)
	rc.login("root", "root", "")
	rc.query("SET net_write_timeout = 1")
	// ~48 MB: more than the loopback socket buffers hold
	q := "SELECT REPEAT('x', 16000000) UNION ALL SELECT REPEAT('y', 16000000) UNION ALL SELECT REPEAT('z', 16000000)"
	rc.pc.resetSequence()
	rc.write(append([]byte{mysql.COM_QUERY}, q...))
	time.Sleep(3 * time.Second) // not reading: the server's writes block
	var err error
	for err == nil {
		_, err = rc.pc.readPacket()
	}
	if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("stalled reader: read %v, want the server to have closed the connection", err)
	}
}
