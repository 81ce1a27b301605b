package server

import (
	"strconv"
	"testing"
	"time"

	"github.com/plrun/plrun/engine"
)

// status reads SHOW GLOBAL STATUS from the engine (as a session does).
func status(t *testing.T, e *engine.Engine) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	for _, r := range e.Status() {
		if n, err := strconv.ParseInt(r[1], 10, 64); err == nil {
			out[r[0]] = n
		}
	}
	return out
}

// waitStatus waits (bounded) for a counter the server updates after the
// client has its answer (a connection's end) to reach want.
func waitStatus(t *testing.T, e *engine.Engine, name string, want int64) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for status(t, e)[name] < want {
		if time.Now().After(deadline) {
			t.Fatalf("%s = %d, want %d", name, status(t, e)[name], want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestStatusCounters provokes each connection and statement counter of
// SHOW GLOBAL STATUS and checks it moved by exactly what was done.
func TestStatusCounters(t *testing.T) {
	ts := startServer(t, Config{}, nil)
	before := status(t, ts.engine)

	// A failed login: an attempt and an aborted connect.
	bad := dialRaw(t, ts.addr)
	if reply := bad.login("root", "wrong", ""); errCode(reply) != 1045 {
		t.Fatalf("bad password: %q", reply)
	}
	waitStatus(t, ts.engine, "Aborted_connects", before["Aborted_connects"]+1)

	// Two logged-in connections at once: Max_used_connections.
	a := dialRaw(t, ts.addr)
	a.login("root", "root", "test")
	b := dialRaw(t, ts.addr)
	b.login("root", "root", "test")
	a.query("CREATE TABLE sc (id INT PRIMARY KEY)")
	a.query("INSERT INTO sc VALUES (1), (2)")
	a.query("UPDATE sc SET id = 3 WHERE id = 2")
	a.query("DELETE FROM sc WHERE id = 3")
	a.query("SELECT * FROM sc")
	b.query("CREATE PROCEDURE scp() LANGUAGE LUA AS $$ session:runSql('SELECT 1') session:runSql('SELECT 2') $$")
	b.query("CALL scp()")
	b.query("SET SESSION long_query_time = 0.05")
	b.query("SELECT SLEEP(0.1)")
	b.query("SELECT 1")
	a.pc.resetSequence()
	a.write([]byte{0x01}) // COM_QUIT
	_ = a.nc.Close()
	_ = b.nc.Close() // no COM_QUIT: an aborted client
	waitStatus(t, ts.engine, "Aborted_clients", before["Aborted_clients"]+1)

	after := status(t, ts.engine)
	for name, want := range map[string]int64{
		"Connections":          3,
		"Aborted_connects":     1,
		"Aborted_clients":      1,
		"Com_create_table":     1,
		"Com_insert":           1,
		"Com_update":           1,
		"Com_delete":           1,
		"Com_select":           5, // a's SELECT, the procedure's two, SLEEP, SELECT 1
		"Com_call_procedure":   1,
		"Com_create_procedure": 1,
		"Com_set_option":       1,
		"Questions":            10, // what the clients sent: not the procedure's two
		"Queries":              12,
		"Slow_queries":         1, // SLEEP(0.1) past long_query_time 0.05; not the others
	} {
		if got := after[name] - before[name]; got != want {
			t.Errorf("%s moved by %d, want %d", name, got, want)
		}
	}
	if after["Max_used_connections"] < 2 {
		t.Errorf("Max_used_connections = %d with two connections open at once", after["Max_used_connections"])
	}
	for _, name := range []string{"Bytes_received", "Bytes_sent"} {
		if after[name] <= before[name] {
			t.Errorf("%s did not move (%d -> %d)", name, before[name], after[name])
		}
	}
	if after["Threads_running"] != 0 {
		t.Errorf("Threads_running = %d with nothing running", after["Threads_running"])
	}
}

// TestThreadsRunning: a session inside a statement counts in
// Threads_running while it runs.
func TestThreadsRunning(t *testing.T) {
	ts := startServer(t, Config{}, nil)
	a := dialRaw(t, ts.addr)
	a.login("root", "root", "test")
	done := make(chan struct{})
	go func() {
		defer close(done)
		a.query("SELECT SLEEP(1)")
	}()
	waitStatus(t, ts.engine, "Threads_running", 1)
	<-done
	if n := status(t, ts.engine)["Threads_running"]; n != 0 {
		t.Errorf("Threads_running = %d after the statement ended", n)
	}
}
