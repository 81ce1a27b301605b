package server

import (
	"testing"
	"time"

	"github.com/go-mysql-org/go-mysql/mysql"
)

// TestProcesslistSendingData: while the server writes a result the client
// does not read, PROCESSLIST shows the connection as Query, "Sending
// data", with its statement; once the client goes away the row is gone.
func TestProcesslistSendingData(t *testing.T) {
	ts := startServer(t, Config{}, nil)
	db := ts.open(t)
	rc := dialRaw(t, ts.addr)
	if reply := rc.login("root", "root", "test"); reply[0] != mysql.OK_HEADER {
		t.Fatalf("login: %q", reply)
	}
	// 32 MiB of rows: far more than the sockets buffer, so the server's
	// write blocks until the client reads.
	const q = "SELECT REPEAT('x', 1048576) FROM (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 32) SELECT i FROM n) d"
	rc.pc.resetSequence()
	rc.write(append([]byte{mysql.COM_QUERY}, q...))

	deadline := time.Now().Add(30 * time.Second)
	var command, state, info string
	for {
		err := db.QueryRow("SELECT COMMAND, STATE, INFO FROM information_schema.PROCESSLIST WHERE ID = ?", rc.id).Scan(&command, &state, &info)
		if err == nil && state == "Sending data" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("never Sending data: %q %q (%v)", command, state, err)
		}
		time.Sleep(time.Millisecond)
	}
	if command != "Query" || info != q {
		t.Errorf("while sending: Command %q, Info %q", command, info)
	}
	rc.nc.Close()
	for {
		var n int
		if err := db.QueryRow("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = ?", rc.id).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the connection's row stayed after its client left")
		}
		time.Sleep(time.Millisecond)
	}
}
