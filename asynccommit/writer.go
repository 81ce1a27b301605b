package asynccommit

import (
	"fmt"
	"time"
)

// delayedSync is an fsynced group waiting out its SyncDelay.
type delayedSync struct {
	start time.Time // when its fsync started
	due   time.Time
	lsn   uint64
}

// run is the writer goroutine: the only code that writes or syncs the log.
func (p *Pipeline) run() {
	defer close(p.done)
	ticker := time.NewTicker(backgroundSyncInterval)
	defer ticker.Stop()
	delay := time.NewTimer(time.Hour)
	delay.Stop()
	defer delay.Stop()
	for {
		var timerDue, closing bool
		if len(p.delayed) > 0 {
			delay.Reset(time.Until(p.delayed[0].due))
		}
		select {
		case <-p.kick:
		case <-ticker.C:
			timerDue = true
		case <-delay.C:
		case <-p.stop:
			closing = true
		}
		delay.Stop()
		p.matureDelayed(closing)
		if p.failure.Load() == nil {
			p.writeAndSync(timerDue, closing)
		}
		if closing {
			p.matureDelayed(true)
			p.stopped.Store(true)
			p.broadcast()
			return
		}
	}
}

// writeAndSync writes queued records group by group and syncs as the flush
// mode and the demands of waiters require, until the queue is empty or the
// mode says to leave it for later.
func (p *Pipeline) writeAndSync(timerDue, closing bool) {
	force := timerDue || closing
	for {
		mode := p.flushMode()
		wrote := false
		if mode != flushLazy || force || p.syncDemand.Load() > p.written || p.queueFull() ||
			(p.waiters.Load() > 0 && p.durableLSN.Load() < p.lastLSN.Load()) {
			group, last, n := p.takeGroup()
			if n > 0 {
				if err := p.log.AppendGroup(group); err != nil {
					p.failStop("write", err)
					return
				}
				p.written = last
				p.stats.commits.Add(uint64(n))
				p.stats.groups.Add(1)
				p.stats.bytes.Add(uint64(len(group)))
				p.hist.groupSize.Observe(uint64(n))
				wrote = true
				if mode != flushEvery {
					// Mode 2 acks on write. Mode 0 acked at Append; acking
					// here too covers records appended under another mode.
					p.advance(last)
					p.observeAcked(last)
				}
			}
		}
		if p.written > p.fsynced && (mode == flushEvery || force || p.syncDemand.Load() > p.fsynced) {
			if err := p.sync(); err != nil {
				p.failStop("sync", err)
				return
			}
		}
		if !wrote {
			return
		}
	}
}

func (p *Pipeline) sync() error {
	start := time.Now()
	if err := p.log.Sync(); err != nil {
		return err
	}
	p.stats.syncs.Add(1)
	p.fsynced = p.written
	if p.opts.SyncDelay != nil {
		if d := p.opts.SyncDelay(); d > 0 {
			p.delayed = append(p.delayed, delayedSync{start: start, due: time.Now().Add(d), lsn: p.written})
			return nil
		}
	}
	p.markSynced(start, p.written)
	return nil
}

// matureDelayed makes durable every delayed group whose time has come (all
// of them when closing, after waiting their delays out).
func (p *Pipeline) matureDelayed(all bool) {
	for len(p.delayed) > 0 {
		d := p.delayed[0]
		if wait := time.Until(d.due); wait > 0 {
			if !all {
				return
			}
			time.Sleep(wait)
		}
		p.delayed = p.delayed[1:]
		p.markSynced(d.start, d.lsn)
	}
}

// markSynced makes everything up to lsn durable: the synced and ack
// watermarks move and waiters wake.
func (p *Pipeline) markSynced(start time.Time, lsn uint64) {
	took := time.Since(start)
	p.stats.syncNanos.Add(uint64(took))
	p.hist.syncLatency.ObserveDuration(took)
	p.syncedLSN.Store(lsn)
	p.raise(lsn)
	p.observeAcked(lsn)
	// One wakeup for both watermarks: Flush waits on syncedLSN, which may
	// move when the ack watermark does not (modes 0 and 2).
	if p.waiters.Load() > 0 {
		p.broadcast()
	}
}

func (p *Pipeline) queueFull() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.mu.queue) >= p.opts.MaxGroupBytes
}

// takeGroup takes the longest prefix of the queue that fits MaxGroupBytes
// (at least one record). Usually that is the whole queue and the buffers are
// swapped, so neither side copies or allocates in the steady state.
func (p *Pipeline) takeGroup() (group []byte, lastLSN uint64, n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	q, ends := p.mu.queue, p.mu.ends
	if len(ends) == 0 {
		return nil, 0, 0
	}
	n = len(ends)
	if len(q) > p.opts.MaxGroupBytes {
		n = 1
		for n < len(ends) && ends[n].end <= p.opts.MaxGroupBytes {
			n++
		}
	}
	lastLSN = ends[n-1].lsn
	p.stampGroupLocked(ends[:n])
	if n == len(ends) {
		spare, spareEnds := p.spare[:0], p.spareEnds[:0]
		if cap(spare) > 2*p.opts.MaxGroupBytes {
			spare = nil // do not keep a buffer grown by one huge record
		}
		p.mu.queue, p.mu.ends = spare, spareEnds
		p.spare, p.spareEnds = q, ends
		return q, lastLSN, n
	}
	cut := ends[n-1].end
	group = append(p.spare[:0], q[:cut]...)
	p.spare = group
	p.mu.queue = q[:copy(q, q[cut:])]
	rest := copy(ends, ends[n:])
	for i := range rest {
		ends[i].end -= cut
	}
	p.mu.ends = ends[:rest]
	return group, lastLSN, n
}

// failStop makes the pipeline fail-stop: no more writes, Append fails, and
// every waiter not yet acknowledged gets ErrOutcomeUnknown.
func (p *Pipeline) failStop(op string, cause error) {
	err := fmt.Errorf("%w: %w", ErrOutcomeUnknown, cause)
	p.mu.Lock()
	first := p.mu.err == nil
	p.mu.err = err
	p.mu.queue, p.mu.ends = nil, nil
	p.mu.Unlock()
	p.failure.Store(&err)
	// Told before the waiters wake, so the cause is in the error log
	// before any client reads its error.
	if first && p.opts.OnFailStop != nil {
		p.opts.OnFailStop(op, cause, p.durableLSN.Load())
	}
	p.broadcast()
}
