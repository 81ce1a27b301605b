package server

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/go-mysql-org/go-mysql/client"
	"github.com/go-mysql-org/go-mysql/mysql"

	"github.com/plrun/plrun/internal/mysqlload"
)

// comQuery is one COM_QUERY packet as a client puts it on the wire.
func comQuery(q string) []byte {
	n := len(q) + 1
	return append([]byte{byte(n), byte(n >> 8), byte(n >> 16), 0, mysql.COM_QUERY}, q...)
}

// TestShutdownRunsPipelinedStatements: a client pipelines three UPDATEs
// behind one that waits for a row lock; all four have reached the server
// when it begins to shut down. Every one of them is run and answered, in
// order, before the connection is closed.
func TestShutdownRunsPipelinedStatements(t *testing.T) {
	ts := startServer(t, Config{}, map[string]string{"innodb_lock_wait_timeout": "50"})
	db := ts.open(t)
	mustExec(t, db, "CREATE TABLE f (id INT PRIMARY KEY, k INT)")
	mustExec(t, db, "INSERT INTO f VALUES (1, 0), (2, 0)")
	ctx := context.Background()
	holdLock(t, db, "UPDATE f SET k = 100 WHERE id = 1")

	raw, err := client.Connect(ts.addr, "root", "root", "test")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var batch []byte
	batch = append(batch, comQuery("UPDATE f SET k = k + 1 WHERE id = 1 /* pipelined-first */")...)
	for i := 0; i < 3; i++ {
		batch = append(batch, comQuery("UPDATE f SET k = k + 10 WHERE id = 2")...)
	}
	if _, err := raw.Conn.Conn.Write(batch); err != nil {
		t.Fatal(err)
	}
	processID(t, db, "pipelined-first") // the first waits for the lock; the rest are in the socket

	// The holder is idle: shutdown closes it, its transaction rolls back,
	// and the lock passes to the first pipelined UPDATE.
	sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	shut := make(chan error, 1)
	go func() { shut <- ts.srv.Shutdown(sctx) }()
	for i := 0; i < 4; i++ {
		raw.Conn.Sequence = 1
		p, err := raw.Conn.ReadPacket()
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
	r, err := s.Exec(ctx, "SELECT k FROM f ORDER BY id", nil)
	s.Close()
	if err != nil {
		t.Fatal(err)
	}
	if a, b := r.Rows[0][0].String(), r.Rows[1][0].String(); a != "1" || b != "30" {
		t.Fatalf("k = %s, %s; want 1, 30 (holder rolled back, all four updates applied)", a, b)
	}
}

// TestShutdownUnderLoad: clients loop single-row UPDATEs while the server
// shuts down. Every acknowledged update is in the data and no other one
// is; each client's last statement ends in an answer (1053) or, if it was
// sent after its connection closed, a lost connection — never a hang.
func TestShutdownUnderLoad(t *testing.T) {
	ts := startServer(t, Config{}, nil)
	db := ts.open(t)
	mustExec(t, db, "CREATE TABLE f (id INT PRIMARY KEY, k INT)")
	const clients = 16
	for i := 1; i <= clients; i++ {
		mustExec(t, db, "INSERT INTO f VALUES (?, 0)", i)
	}
	load := mysqlload.StartUpdaters(ts.dsn("root", "root", "test"), clients)
	time.Sleep(300 * time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := ts.srv.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	acked, endings := load.Wait()
	<-ts.served
	ts.served <- nil
	s := ts.engine.NewSession()
	defer s.Close()
	total := 0
	for i := 1; i <= clients; i++ {
		r, err := s.Exec(context.Background(), "SELECT k FROM f WHERE id = ?", []any{i})
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Rows[0][0].String(); got != fmt.Sprint(acked[i]) {
			t.Errorf("row %d: k = %s, want its %d acknowledged updates", i, got, acked[i])
		}
		total += acked[i]
	}
	for ending := range endings {
		if ending != "error 1053" && ending != "lost connection" {
			t.Errorf("a client ended with %s", ending)
		}
	}
	if total == 0 {
		t.Fatal("no update was acknowledged before shutdown")
	}
	t.Logf("%d updates acknowledged; clients ended with %v", total, endings)
}
