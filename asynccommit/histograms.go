package asynccommit

import (
	"time"

	"github.com/plrun/plrun/internal/histogram"
)

// Histograms are the pipeline's latency and size distributions, read at
// scrape time by the metrics endpoint.
type Histograms struct {
	// CommitLatency is, per record, the nanoseconds from its Append until
	// the ack watermark covered it: what a commit waits for durability
	// (0 for records acknowledged at Append, mode 0).
	CommitLatency histogram.Snapshot
	// SyncLatency is, per fsync, the nanoseconds from its start until its
	// group counted as durable (SyncDelay included).
	SyncLatency histogram.Snapshot
	// GroupSize is the records per log entry (one AppendGroup).
	GroupSize histogram.Snapshot
}

// pipelineHistograms are owned by the pipeline; only the writer goroutine
// observes them, so they cost the committers nothing but the Append
// timestamp.
type pipelineHistograms struct {
	commitLatency, syncLatency, groupSize *histogram.Histogram
}

func newPipelineHistograms() pipelineHistograms {
	return pipelineHistograms{
		commitLatency: histogram.NewDuration(time.Microsecond, 27), // 1us .. 67s
		syncLatency:   histogram.NewDuration(time.Microsecond, 27),
		groupSize:     histogram.New(1, 14), // 1 .. 8192 records
	}
}

// Histograms returns snapshots of the pipeline's histograms.
func (p *Pipeline) Histograms() Histograms {
	return Histograms{
		CommitLatency: p.hist.commitLatency.Snapshot(),
		SyncLatency:   p.hist.syncLatency.Snapshot(),
		GroupSize:     p.hist.groupSize.Snapshot(),
	}
}

// ackStamp is a written record waiting for the ack watermark: when it was
// appended (nanoseconds since the pipeline's epoch; ackedAtAppend if the
// watermark covered it at Append).
type ackStamp struct {
	lsn      uint64
	appended int64
}

const ackedAtAppend = -1

// now is the monotonic time since the pipeline opened, in nanoseconds.
func (p *Pipeline) now() int64 { return int64(time.Since(p.epoch)) }

// stampGroupLocked queues the stamps of the records just taken as a group
// (writer goroutine only, with p.mu held so ends is stable).
func (p *Pipeline) stampGroupLocked(ends []recordEnd) {
	for _, e := range ends {
		p.ackQueue = append(p.ackQueue, ackStamp{lsn: e.lsn, appended: e.appended})
	}
}

// observeAcked records the commit latency of every queued record the ack
// watermark, now at lsn, covers (writer goroutine only).
func (p *Pipeline) observeAcked(lsn uint64) {
	q, i := p.ackQueue, p.ackHead
	if i == len(q) {
		return
	}
	now := p.now()
	for ; i < len(q) && q[i].lsn <= lsn; i++ {
		if q[i].appended == ackedAtAppend {
			p.hist.commitLatency.Observe(0)
		} else {
			p.hist.commitLatency.Observe(uint64(max(now-q[i].appended, 0)))
		}
	}
	if i == len(q) {
		p.ackQueue, p.ackHead = q[:0], 0
		return
	}
	p.ackHead = i
	if i > len(q)/2 { // many groups in flight (SyncDelay): keep the slice small
		n := copy(q, q[i:])
		p.ackQueue, p.ackHead = q[:n], 0
	}
}
