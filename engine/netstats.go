package engine

import (
	"strconv"
	"sync/atomic"
)

// NetStats are the connection counters of SHOW GLOBAL STATUS that a
// protocol server keeps (Connections, Aborted_connects, Aborted_clients,
// Bytes_received, Bytes_sent, Max_used_connections). The server updates
// them; an engine used without one reports zeros.
type NetStats struct {
	connections     atomic.Uint64 // connection attempts, admitted or not
	abortedConnects atomic.Uint64 // attempts that never logged in
	abortedClients  atomic.Uint64 // logged-in connections that ended without COM_QUIT
	bytesReceived   atomic.Uint64
	bytesSent       atomic.Uint64
	refusedMax      atomic.Uint64 // attempts refused with 1040 (max_connections)
	open            atomic.Int64
	maxUsed         atomic.Int64
}

// Net is the engine's connection counters, for its server.
func (e *Engine) Net() *NetStats { return &e.net }

// Attempt counts a connection attempt.
func (n *NetStats) Attempt() { n.connections.Add(1) }

// AbortedConnect counts an attempt refused or failed before login.
func (n *NetStats) AbortedConnect() { n.abortedConnects.Add(1) }

// RefusedMaxConnections counts an attempt refused with 1040 because
// max_connections were open (it is an aborted connect too).
func (n *NetStats) RefusedMaxConnections() { n.refusedMax.Add(1) }

// AbortedClient counts a logged-in connection the client dropped.
func (n *NetStats) AbortedClient() { n.abortedClients.Add(1) }

// Opened and Closed track the open connections (Max_used_connections).
func (n *NetStats) Opened() {
	cur := n.open.Add(1)
	for {
		max := n.maxUsed.Load()
		if cur <= max || n.maxUsed.CompareAndSwap(max, cur) {
			return
		}
	}
}

// Closed is the end of a connection Opened counted.
func (n *NetStats) Closed() { n.open.Add(-1) }

// Received and Sent count socket bytes.
func (n *NetStats) Received(b int) { n.bytesReceived.Add(uint64(b)) }

// Sent counts socket bytes written.
func (n *NetStats) Sent(b int) { n.bytesSent.Add(uint64(b)) }

func (n *NetStats) rows() [][2]string {
	u := func(v uint64) string { return strconv.FormatUint(v, 10) }
	return [][2]string{
		{"Aborted_clients", u(n.abortedClients.Load())},
		{"Aborted_connects", u(n.abortedConnects.Load())},
		{"Bytes_received", u(n.bytesReceived.Load())},
		{"Bytes_sent", u(n.bytesSent.Load())},
		{"Connection_errors_max_connections", u(n.refusedMax.Load())},
		{"Connections", u(n.connections.Load())},
		{"Max_used_connections", strconv.FormatInt(n.maxUsed.Load(), 10)},
	}
}
