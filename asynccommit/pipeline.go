package asynccommit

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/plrun/plrun/wal"
)

// ErrOutcomeUnknown is wrapped, together with the cause, by the error every
// waiter on a not yet acknowledged LSN gets after a log write or sync failed
// (fail-stop, DESIGN.md invariant 5). The transaction may or may not be in
// the log; a restart recovers whichever durable prefix made it.
var ErrOutcomeUnknown = errors.New("commit outcome unknown: the log failed")

// ErrClosed is returned by Append after Close, and by WaitDurable and Flush
// for an LSN the closed pipeline never acknowledged.
var ErrClosed = errors.New("asynccommit: pipeline closed")

const (
	defaultMaxGroupBytes = 4 << 20
	// backgroundSyncInterval is the "about once a second" of modes 0 and 2.
	backgroundSyncInterval = time.Second
)

// Flush modes, as in innodb_flush_log_at_trx_commit.
const (
	flushLazy     = 0 // write+sync about once a second; ack at Append
	flushEvery    = 1 // write+sync every group; ack after sync
	flushWriteAck = 2 // write every group, sync about once a second; ack after write
)

// Options configures a Pipeline. Every field may be left zero.
type Options struct {
	// FlushMode returns innodb_flush_log_at_trx_commit; it is read once per
	// group by the writer and once per Append (mode 0 acknowledges there).
	// nil, or any value other than 0 and 2, means 1.
	//   1: write and fsync every group; acknowledge after the fsync.
	//   2: write every group, fsync about once a second; acknowledge after
	//      the write (survives a process crash, not an OS crash).
	//   0: write and fsync about once a second; acknowledge at Append
	//      (a crash may lose about the last second of commits).
	FlushMode func() int
	// SyncDelay is added after every fsync before its group counts as
	// durable (and in Stats.SyncNanos), to simulate e.g. a 2 ms or 30 ms
	// multi-region commit. Like a replication round trip it is pipelined:
	// the writer goes on writing and syncing later groups meanwhile, and
	// groups become durable in LSN order. nil means none.
	SyncDelay func() time.Duration
	// MaxGroupBytes caps one group (one log entry); default 4 MiB. A record
	// larger than the cap is written as a group of its own.
	MaxGroupBytes int
	// OnFailStop is told, once, that a log write or sync failed and the
	// pipeline stopped (the error log's line): op is "write" or "sync",
	// durable the last LSN acknowledged before. It runs on the writer
	// goroutine before the waiters are released, and must not block long.
	OnFailStop func(op string, cause error, durable uint64)
}

// Stats are cumulative counters of the writer.
type Stats struct {
	Commits   uint64 // records written to the log
	Groups    uint64 // log entries (AppendGroup calls)
	Syncs     uint64
	Bytes     uint64 // framed bytes written
	SyncNanos uint64 // total time from each fsync's start until its group is durable (SyncDelay included)
}

// recordEnd marks where a queued record's frame ends in the queue.
type recordEnd struct {
	end      int
	lsn      uint64
	appended int64 // Pipeline.now() at Append, or ackedAtAppend
}

// Pipeline is the commit pipeline: Append assigns LSNs and queues framed
// records; one writer goroutine writes them to the log in groups and syncs;
// WaitDurable waits for the acknowledgement watermark. See doc.go.
type Pipeline struct {
	log  *wal.Log
	opts Options

	durableLSN atomic.Uint64 // the ack watermark; monotone
	syncedLSN  atomic.Uint64 // everything <= is fsynced; monotone
	lastLSN    atomic.Uint64 // last assigned LSN; its record is queued or written
	syncDemand atomic.Uint64 // highest LSN a Flush needs synced
	waiters    atomic.Int64  // goroutines in WaitDurable or Flush
	failure    atomic.Pointer[error]
	stopped    atomic.Bool // the writer has exited

	kick chan struct{} // capacity 1: "there may be work"
	stop chan struct{} // closed by Close
	done chan struct{} // closed when the writer exits

	// notify is closed and replaced whenever the watermark advances or the
	// pipeline fails or stops: one allocation per group, however many wait.
	notifyMu sync.Mutex
	notify   chan struct{}

	// mu is the short serialized step of Append. Nothing does I/O under it.
	mu struct {
		sync.Mutex
		nextLSN uint64
		queue   []byte      // framed records not yet taken by the writer
		ends    []recordEnd // one per queued record, in LSN order
		closed  bool
		err     error // the fail-stop error
	}

	// Owned by the writer goroutine.
	spare     []byte
	spareEnds []recordEnd
	written   uint64 // last LSN handed to the log
	fsynced   uint64 // last LSN fsynced to the local log file
	// delayed are fsynced groups still inside their SyncDelay, oldest
	// first: each becomes durable at its due time. The delay models a
	// remote round trip (a multi-region log), so it overlaps with the next
	// groups' writes and syncs instead of stalling the writer.
	delayed []delayedSync
	// ackQueue[ackHead:] are the written records not yet acknowledged, in
	// LSN order, for the commit latency histogram.
	ackQueue []ackStamp
	ackHead  int

	epoch time.Time // the origin of recordEnd.appended
	hist  pipelineHistograms

	stats struct {
		commits, groups, syncs, bytes, syncNanos atomic.Uint64
	}

	closeOnce sync.Once
	closeErr  error
}

// Open starts the pipeline's writer goroutine on log. LSNs continue after
// log.LastLSN(); what the log already holds counts as durable. The caller
// keeps ownership of log and closes it after Close.
func Open(log *wal.Log, opts Options) *Pipeline {
	if opts.MaxGroupBytes <= 0 {
		opts.MaxGroupBytes = defaultMaxGroupBytes
	}
	p := &Pipeline{
		log:    log,
		opts:   opts,
		kick:   make(chan struct{}, 1),
		stop:   make(chan struct{}),
		done:   make(chan struct{}),
		notify: make(chan struct{}),
		epoch:  time.Now(),
		hist:   newPipelineHistograms(),
	}
	last := log.LastLSN()
	p.mu.nextLSN = last
	p.lastLSN.Store(last)
	p.durableLSN.Store(last)
	p.syncedLSN.Store(last)
	p.written = last
	p.fsynced = last
	go p.run()
	return p
}

func (p *Pipeline) flushMode() int {
	if p.opts.FlushMode == nil {
		return flushEvery
	}
	switch m := p.opts.FlushMode(); m {
	case flushLazy, flushWriteAck:
		return m
	default:
		return flushEvery
	}
}

// Append assigns the next LSN to a record and queues its frame. It never
// waits for I/O: the only serialized work is framing the record into the
// queue. LSN order is queue order is log order.
func (p *Pipeline) Append(kind wal.Kind, payload []byte) (lsn uint64, err error) {
	ackAtAppend := p.flushMode() == flushLazy
	appended := int64(ackedAtAppend)
	if !ackAtAppend {
		appended = p.now() // outside mu: the clock read is not serialized
	}
	p.mu.Lock()
	if p.mu.err != nil {
		err = p.mu.err
		p.mu.Unlock()
		return 0, err
	}
	if p.mu.closed {
		p.mu.Unlock()
		return 0, ErrClosed
	}
	p.mu.nextLSN++
	lsn = p.mu.nextLSN
	wasEmpty := len(p.mu.ends) == 0
	p.mu.queue = wal.AppendRecord(p.mu.queue, wal.Record{LSN: lsn, Kind: kind, Payload: payload})
	p.mu.ends = append(p.mu.ends, recordEnd{end: len(p.mu.queue), lsn: lsn, appended: appended})
	full := len(p.mu.queue) >= p.opts.MaxGroupBytes
	p.lastLSN.Store(lsn)
	// Mode 0 acknowledges here, under mu, so a fail-stop (which takes mu)
	// is strictly before or after this acknowledgement.
	acked := ackAtAppend && p.raise(lsn)
	p.mu.Unlock()

	if acked && p.waiters.Load() > 0 {
		p.broadcast()
	}
	// The writer takes the whole queue each time, so it only needs waking
	// when the queue goes from empty to not (or fills, for mode 0).
	if wasEmpty || full {
		p.kickWriter()
	}
	return lsn, nil
}

func (p *Pipeline) kickWriter() {
	if len(p.kick) > 0 { // a wakeup is already pending; skip the channel lock
		return
	}
	select {
	case p.kick <- struct{}{}:
	default:
	}
}

// advance raises the ack watermark to lsn (never lowers it) and wakes the
// waiters if there are any.
func (p *Pipeline) advance(lsn uint64) {
	// A waiter increments waiters before it loads the watermark, so either
	// we see it here or it sees the new watermark.
	if p.raise(lsn) && p.waiters.Load() > 0 {
		p.broadcast()
	}
}

// raise raises the ack watermark to lsn without waking anyone and reports
// whether it moved.
func (p *Pipeline) raise(lsn uint64) bool {
	for {
		cur := p.durableLSN.Load()
		if lsn <= cur {
			return false
		}
		if p.durableLSN.CompareAndSwap(cur, lsn) {
			return true
		}
	}
}

func (p *Pipeline) broadcast() {
	p.notifyMu.Lock()
	close(p.notify)
	p.notify = make(chan struct{})
	p.notifyMu.Unlock()
}

func (p *Pipeline) notifyChan() <-chan struct{} {
	p.notifyMu.Lock()
	ch := p.notify
	p.notifyMu.Unlock()
	return ch
}

// WaitDurable waits until the ack watermark reaches lsn. It returns ctx.Err()
// if ctx ends first, and after a fail-stop an error wrapping
// ErrOutcomeUnknown for any lsn not acknowledged before the failure.
func (p *Pipeline) WaitDurable(ctx context.Context, lsn uint64) error {
	if lsn == 0 || p.durableLSN.Load() >= lsn {
		return nil
	}
	return p.wait(ctx, lsn, &p.durableLSN)
}

// wait blocks until mark >= lsn, failure, stop, or ctx's end.
func (p *Pipeline) wait(ctx context.Context, lsn uint64, mark *atomic.Uint64) error {
	if last := p.lastLSN.Load(); lsn > last {
		return fmt.Errorf("asynccommit: wait for lsn %d, which is not assigned yet (last %d)", lsn, last)
	}
	p.waiters.Add(1)
	defer p.waiters.Add(-1)
	// In mode 0 the writer leaves the queue alone until its timer unless
	// someone waits; tell it someone does.
	p.kickWriter()
	for {
		ch := p.notifyChan()
		if mark.Load() >= lsn {
			return nil
		}
		if errp := p.failure.Load(); errp != nil {
			return *errp
		}
		if p.stopped.Load() {
			return ErrClosed
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// DurableLSN returns the ack watermark.
func (p *Pipeline) DurableLSN() uint64 { return p.durableLSN.Load() }

// LastLSN returns the last assigned LSN.
func (p *Pipeline) LastLSN() uint64 { return p.lastLSN.Load() }

// Flush writes and fsyncs everything appended before the call, whatever the
// flush mode (checkpoints and shutdown use it).
func (p *Pipeline) Flush(ctx context.Context) error {
	target := p.lastLSN.Load()
	if p.syncedLSN.Load() >= target {
		return nil
	}
	for {
		cur := p.syncDemand.Load()
		if cur >= target || p.syncDemand.CompareAndSwap(cur, target) {
			break
		}
	}
	return p.wait(ctx, target, &p.syncedLSN)
}

// Err returns the fail-stop error, or nil.
func (p *Pipeline) Err() error {
	if errp := p.failure.Load(); errp != nil {
		return *errp
	}
	return nil
}

// Stats returns the writer's counters.
func (p *Pipeline) Stats() Stats {
	return Stats{
		Commits:   p.stats.commits.Load(),
		Groups:    p.stats.groups.Load(),
		Syncs:     p.stats.syncs.Load(),
		Bytes:     p.stats.bytes.Load(),
		SyncNanos: p.stats.syncNanos.Load(),
	}
}

// Close stops new Appends, writes and fsyncs what is queued, stops the
// writer and waits for it. It returns the fail-stop error, if any. It is
// idempotent and does not close the log.
func (p *Pipeline) Close() error {
	p.closeOnce.Do(func() {
		p.mu.Lock()
		p.mu.closed = true
		p.mu.Unlock()
		close(p.stop)
		<-p.done
		p.closeErr = p.Err()
	})
	return p.closeErr
}
