package server

import (
	"net"
	"sync/atomic"
	"time"

	"github.com/plrun/plrun/engine"
)

// Draining on shutdown. A statement counts as received once its bytes have
// reached plrun's socket: Shutdown records, for every connection, how many
// bytes had arrived by then (read from the socket, plus what the kernel
// holds unread). Every statement within that mark is run to completion and
// answered, however many a client pipelined; a statement that arrives after
// it, within drainLinger of the connection's last reply, is answered 1053
// (Server shutdown in progress) instead of being run; a connection with
// nothing more within drainLinger is closed. So no statement plrun received
// is dropped without an answer, and a client learns for each statement
// whether it ran.

// drainLinger is how long a draining connection waits for a statement
// after its last reply before closing: long enough for a client that sends
// its next statement at once to get 1053 rather than a lost connection.
const drainLinger = 250 * time.Millisecond

// countingConn counts the bytes read from the socket (for the drain) and
// the bytes both ways for the engine's Bytes_received / Bytes_sent.
type countingConn struct {
	net.Conn
	read atomic.Int64
	net  *engine.NetStats
	// writeTimeout bounds each socket write (the session's
	// net_write_timeout, in nanoseconds; 0 none), as MariaDB's: a client
	// that stops reading a reply is disconnected (idle.go).
	writeTimeout atomic.Int64
}

func (c *countingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.read.Add(int64(n))
	c.net.Received(n)
	return n, err
}

func (c *countingConn) Write(p []byte) (int, error) {
	if d := c.writeTimeout.Load(); d > 0 {
		_ = c.Conn.SetWriteDeadline(time.Now().Add(time.Duration(d)))
	}
	n, err := c.Conn.Write(p)
	c.net.Sent(n)
	return n, err
}

// maxPacketPayload is the protocol's largest packet payload; a longer
// command comes as several packets, each with a 4-byte header.
const maxPacketPayload = 1<<24 - 1

// wireSize is how many socket bytes a command of payload bytes took.
func wireSize(payload int) int64 {
	return int64(payload) + 4*int64(payload/maxPacketPayload+1)
}

// noDrainMark is drainMark before Shutdown.
const noDrainMark = -1

// markDrain records how many bytes had reached the connection when the
// server began to drain, and wakes an idle one so that it lingers rather
// than waits for ever. Called by Shutdown with c.mu held.
func (c *conn) markDrain() {
	c.drainMark.Store(c.sock.read.Load() + unreadBytes(c.sock.Conn))
	if c.wire == nil {
		_ = c.sock.SetReadDeadline(time.Now()) // mid-handshake: refuse
		return
	}
	if !c.mu.busy {
		_ = c.sock.SetReadDeadline(time.Now().Add(drainLinger))
	}
}

// receivedBeforeDrain reports whether the command just read (consumed now
// counts it) had wholly arrived before the server began to drain.
func (c *conn) receivedBeforeDrain() bool {
	mark := c.drainMark.Load()
	return mark == noDrainMark || c.consumed <= mark
}

// lingerIfDraining bounds the next read of a draining connection.
func (c *conn) lingerIfDraining() {
	if c.drainMark.Load() != noDrainMark {
		_ = c.sock.SetReadDeadline(time.Now().Add(drainLinger))
	}
}
