package engine

import (
	"sync/atomic"
	"time"

	"github.com/plrun/plrun/asynccommit"
	"github.com/plrun/plrun/hotrow"
	"github.com/plrun/plrun/internal/histogram"
	"github.com/plrun/plrun/lockmgr"
	"github.com/plrun/plrun/sql/counters"
	"github.com/plrun/plrun/txn"
)

// Metrics is everything the engine counts, read at one moment: the same
// atomics SHOW GLOBAL STATUS reads, plus the histograms. The metrics
// endpoint (package metrics) turns it into Prometheus metrics at scrape
// time, so the engine keeps no Prometheus state and pays nothing between
// scrapes.
type Metrics struct {
	Pipeline            asynccommit.Stats
	PipelineHistograms  asynccommit.Histograms
	LastLSN, DurableLSN uint64

	Locks          lockmgr.Stats
	LockHistograms lockmgr.Histograms
	Txns           txn.Stats

	HotRow           hotrow.Stats
	HotRowGroupSizes histogram.Snapshot

	Statements counters.Snapshot
	Net        NetSnapshot
	// ThreadsConnected is the open sessions (Threads_connected).
	ThreadsConnected int

	WorkersBusy, WorkersLimit int

	Checkpoints, CheckpointFailures uint64
	CheckpointDuration              histogram.Snapshot // nanoseconds, failed ones included

	Uptime time.Duration
}

// NetSnapshot is NetStats at one moment.
type NetSnapshot struct {
	Connections, AbortedConnects, AbortedClients, RefusedMaxConnections uint64
	BytesReceived, BytesSent                                            uint64
	Open, MaxUsed                                                       int64
}

// Metrics reads every counter and histogram of the engine. It is safe
// from any goroutine and takes no lock a commit holds.
func (e *Engine) Metrics() Metrics {
	e.sessMu.Lock()
	conns := len(e.sessions)
	e.sessMu.Unlock()
	n := &e.net
	return Metrics{
		Pipeline:           e.pipe.Stats(),
		PipelineHistograms: e.pipe.Histograms(),
		LastLSN:            e.pipe.LastLSN(),
		DurableLSN:         e.pipe.DurableLSN(),
		Locks:              e.locks.Stats(),
		LockHistograms:     e.locks.Histograms(),
		Txns:               e.txm.Stats(),
		HotRow:             e.hot.Stats(),
		HotRowGroupSizes:   e.hot.GroupSizes(),
		Statements:         e.db.Counters.Snapshot(),
		Net: NetSnapshot{
			Connections: n.connections.Load(), AbortedConnects: n.abortedConnects.Load(),
			AbortedClients: n.abortedClients.Load(), RefusedMaxConnections: n.refusedMax.Load(),
			BytesReceived: n.bytesReceived.Load(), BytesSent: n.bytesSent.Load(),
			Open: n.open.Load(), MaxUsed: n.maxUsed.Load(),
		},
		ThreadsConnected:   conns,
		WorkersBusy:        e.workers.busyCount(),
		WorkersLimit:       e.workers.limitCount(),
		Checkpoints:        e.ckpt.done.Load(),
		CheckpointFailures: e.ckpt.failed.Load(),
		CheckpointDuration: e.ckpt.duration.Snapshot(),
		Uptime:             time.Since(e.started),
	}
}

// checkpointStats count the checkpoints (CHECKPOINT, and the automatic
// ones past plrun_checkpoint_log_size) and how long each took.
type checkpointStats struct {
	done, failed atomic.Uint64
	duration     *histogram.Histogram
}

func newCheckpointDuration() *histogram.Histogram {
	return histogram.NewDuration(time.Millisecond, 20) // 1ms .. 524s
}

func (c *checkpointStats) note(start time.Time, err error) {
	c.duration.Since(start)
	if err != nil {
		c.failed.Add(1)
		return
	}
	c.done.Add(1)
}
