package server

import (
	"net"
	"testing"
	"time"
)

// TestStatusRefusalsAndCheckpoints: the two SHOW GLOBAL STATUS counters
// the metrics work added, Connection_errors_max_connections (a refusal
// with 1040) and Plrun_checkpoints (a CHECKPOINT), each move by one.
func TestStatusRefusalsAndCheckpoints(t *testing.T) {
	ts := startServer(t, Config{MaxConnections: 1}, nil)
	before := status(t, ts.engine)
	a := dialRaw(t, ts.addr)
	a.login("root", "root", "test")
	a.query("CHECKPOINT")
	nc, err := net.Dial("tcp", ts.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	_ = nc.SetDeadline(time.Now().Add(30 * time.Second))
	reply, err := newPacketConn(nc).readPacket()
	if err != nil || errCode(reply) != 1040 {
		t.Fatalf("second connection past max_connections 1: %q, %v", reply, err)
	}
	waitStatus(t, ts.engine, "Connection_errors_max_connections", before["Connection_errors_max_connections"]+1)
	after := status(t, ts.engine)
	if d := after["Plrun_checkpoints"] - before["Plrun_checkpoints"]; d != 1 {
		t.Errorf("Plrun_checkpoints moved by %d, want 1", d)
	}
	if d := after["Aborted_connects"] - before["Aborted_connects"]; d != 1 {
		t.Errorf("Aborted_connects moved by %d, want 1 (the refusal)", d)
	}
}
