package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/go-mysql-org/go-mysql/mysql"
)

// The connection's machinery that watches its socket (KILL of an idle
// connection, a client's disconnect cancelling its statement, the
// shutdown drain of pipelined statements) works the same over TLS.

// dialTLS is a raw client logged in over TLS.
func dialTLS(t *testing.T, ts *testServer, ca string) *rawClient {
	t.Helper()
	rc := dialRaw(t, ts.addr)
	rc.startTLS(ca)
	if ok := rc.login("root", "root", "test"); ok[0] != mysql.OK_HEADER {
		t.Fatalf("TLS login: %q", ok)
	}
	return rc
}

func TestTLSKillIdleConnection(t *testing.T) {
	cfg, ca := testTLS(t)
	ts := startServer(t, Config{TLS: cfg}, nil)
	rc := dialTLS(t, ts, ca)
	_ = rc.nc.SetReadDeadline(time.Now().Add(20 * time.Second))
	mustExec(t, ts.open(t), fmt.Sprintf("KILL %d", rc.id))
	if _, err := rc.pc.readPacket(); !errors.Is(err, io.EOF) {
		t.Fatalf("the killed idle TLS connection: %v, want the server to close it", err)
	}
}

func TestTLSDisconnectCancelsStatement(t *testing.T) {
	cfg, ca := testTLS(t)
	ts := startServer(t, Config{TLS: cfg}, map[string]string{"innodb_lock_wait_timeout": "1000"})
	db := ts.open(t)
	mustExec(t, db, "CREATE TABLE dc (id INT PRIMARY KEY, k INT)")
	mustExec(t, db, "INSERT INTO dc VALUES (1, 0)")
	holder := holdLock(t, db, "UPDATE dc SET k = 1 WHERE id = 1")
	rc := dialTLS(t, ts, ca)
	rc.write(append([]byte{mysql.COM_QUERY}, "UPDATE dc SET k = 100 WHERE id = 1 /* tls-gone */"...))
	processID(t, db, "tls-gone")
	rc.nc.Close()
	deadline := time.Now().Add(30 * time.Second)
	for hasProcess(t, db, "tls-gone") {
		if time.Now().After(deadline) {
			t.Fatal("the disconnected TLS client's statement is still running")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, err := holder.ExecContext(context.Background(), "COMMIT"); err != nil {
		t.Fatal(err)
	}
	var k int
	if err := db.QueryRow("SELECT k FROM dc WHERE id = 1").Scan(&k); err != nil || k != 1 {
		t.Fatalf("k = %d, %v; want 1", k, err)
	}
}

// TestTLSShutdownRunsPipelinedStatements: statements pipelined over TLS
// behind one waiting for a lock are all run and answered by the drain.
func TestTLSShutdownRunsPipelinedStatements(t *testing.T) {
	cfg, ca := testTLS(t)
	ts := startServer(t, Config{TLS: cfg}, map[string]string{"innodb_lock_wait_timeout": "50"})
	db := ts.open(t)
	mustExec(t, db, "CREATE TABLE f (id INT PRIMARY KEY, k INT)")
	mustExec(t, db, "INSERT INTO f VALUES (1, 0), (2, 0)")
	holdLock(t, db, "UPDATE f SET k = 100 WHERE id = 1")
	rc := dialTLS(t, ts, ca)
	send := func(q string) {
		rc.pc.resetSequence()
		if err := rc.pc.writePacket(append([]byte{mysql.COM_QUERY}, q...)); err != nil {
			t.Fatal(err)
		}
	}
	send("UPDATE f SET k = k + 1 WHERE id = 1 /* tls-pipelined */")
	for i := 0; i < 3; i++ {
		send("UPDATE f SET k = k + 10 WHERE id = 2")
	}
	if err := rc.pc.flush(); err != nil {
		t.Fatal(err)
	}
	processID(t, db, "tls-pipelined")
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	shut := make(chan error, 1)
	go func() { shut <- ts.srv.Shutdown(sctx) }()
	for i := 0; i < 4; i++ {
		rc.pc.seq = 1
		p, err := rc.pc.readPacket()
		if err != nil {
			t.Fatalf("reply %d of 4: %v (a received statement was dropped)", i+1, err)
		}
		if p[0] != mysql.OK_HEADER {
			t.Fatalf("reply %d of 4 is not OK: %q", i+1, p)
		}
	}
	if err := <-shut; err != nil {
		t.Fatal(err)
	}
	<-ts.served
	ts.served <- nil
	s := ts.engine.NewSession()
	r, err := s.Exec(context.Background(), "SELECT k FROM f ORDER BY id", nil)
	s.Close()
	if err != nil {
		t.Fatal(err)
	}
	if a, b := r.Rows[0][0].String(), r.Rows[1][0].String(); a != "1" || b != "30" {
		t.Fatalf("k = %s, %s; want 1, 30", a, b)
	}
}
