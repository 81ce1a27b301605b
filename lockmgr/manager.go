package lockmgr

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"
)

// TxnID identifies a transaction. Zero is a valid ID.
type TxnID uint64

// Key names a lockable row. It is opaque to the lock manager; the transaction
// layer builds it, e.g. "<tableID>/<encoded primary key>".
type Key string

var (
	// ErrDeadlock is returned to the requester whose wait would close a cycle
	// in the waits-for graph. The other transactions in the cycle go on.
	ErrDeadlock = errors.New("deadlock found when trying to get lock")
	// ErrLockWaitTimeout is returned when Options.LockWaitTimeout elapses
	// before the lock (and any ELR dependent wait) is obtained.
	ErrLockWaitTimeout = errors.New("lock wait timeout exceeded")
)

// defaultLockWaitTimeout is innodb_lock_wait_timeout's default.
const defaultLockWaitTimeout = 50 * time.Second

// Durability is the commit pipeline's view needed for ELR marks.
type Durability interface {
	// DurableLSN returns the durable watermark. It is called under lockmgr's
	// mutexes and must not call back into lockmgr.
	DurableLSN() uint64
	// WaitDurable blocks until DurableLSN() >= lsn or ctx ends.
	WaitDurable(ctx context.Context, lsn uint64) error
}

// Options configures a Manager. The funcs are read at every use, so SET
// GLOBAL takes effect for the next wait.
type Options struct {
	// LockWaitTimeout bounds each Acquire's total wait
	// (innodb_lock_wait_timeout). Default 50s when nil; <= 0 means fail at
	// once instead of waiting.
	LockWaitTimeout func() time.Duration
	// MaxELRDependents is _max_elr_dependent_trx_count, read at each acquire;
	// <= 0 (or nil) means unlimited.
	MaxELRDependents func() int
	// Durability may be nil; then ELR marks are never pending.
	Durability Durability
}

// Stats are cumulative counters for SHOW GLOBAL STATUS.
type Stats struct {
	LockWaits           uint64 // Acquire calls that had to queue
	Deadlocks           uint64 // Acquire calls refused with ErrDeadlock
	LockWaitTimeouts    uint64 // Acquire calls that ended in ErrLockWaitTimeout
	EarlyReleases       uint64 // ReleaseEarly calls that released at least one lock
	DependentLimitWaits uint64 // new holders that waited for ELR dependents to become durable
	CurrentWaiters      int64  // transactions queued on a key right now
}

// Manager is the lock table. The zero value is not usable; call New.
type Manager struct {
	opts   Options
	shards [numLockShards]lockTableShard
	graph  waitsForGraph
	txns   txnTable
	stats  struct {
		lockWaits, deadlocks, lockWaitTimeouts, earlyReleases, dependentLimitWaits atomic.Uint64
		currentWaiters                                                             atomic.Int64
	}
	hist waitHistograms
}

// New returns an empty lock manager.
func New(opts Options) *Manager {
	m := &Manager{opts: opts, hist: newWaitHistograms()}
	for i := range m.shards {
		m.shards[i].mu.locks = make(map[Key]*lockState)
	}
	m.graph.mu.waitingOn = make(map[TxnID]*lockState)
	m.txns.init()
	return m
}

// Acquire takes an exclusive lock on key for txn. It is re-entrant: a txn
// that already holds key gets nil at once. Waiters are granted in FIFO order.
//
// It returns ErrDeadlock if waiting would close a cycle (txn is the victim),
// ErrLockWaitTimeout after the lock wait timeout, or ctx.Err() wrapped when
// ctx ends. If the lock is granted at the same moment the ctx or the timer
// fires, the grant wins and Acquire returns nil. On any error txn neither
// holds nor is queued for key (a lock it held before the call stays held).
//
// When txn becomes the holder of a key carrying n >= MaxELRDependents pending
// ELR marks, Acquire waits, holding the lock, until fewer than that many are
// pending; see the package comment.
func (m *Manager) Acquire(ctx context.Context, txn TxnID, key Key) error {
	sh := m.shardFor(key)
	sh.mu.Lock()
	durable, haveDurable := m.purgeShardLocked(sh)
	ls := sh.getOrCreateLocked(key)
	if ls.held && ls.holder == txn {
		sh.mu.Unlock()
		return nil
	}
	var deadline time.Time // zero until Acquire first waits
	if ls.held {
		var err error
		if deadline, err = m.waitInQueue(ctx, sh, ls, txn, key); err != nil {
			return err
		}
		sh.mu.Lock()
		haveDurable = false // time has passed; read it again if marks need it
	} else {
		ls.held, ls.holder = true, txn
	}
	lsn, mustWait := m.dependentLimitLocked(ls, durable, haveDurable)
	sh.mu.Unlock()
	if mustWait {
		if err := m.waitForDependents(ctx, txn, key, lsn, deadline); err != nil {
			m.releaseOne(txn, key)
			return err
		}
	}
	m.txns.add(txn, key)
	return nil
}

// waitInQueue is called with sh.mu held and ls held by another txn. It
// returns with sh.mu released; on success txn holds ls. The returned deadline
// is when the lock wait timeout ends (shared with the dependent wait).
func (m *Manager) waitInQueue(
	ctx context.Context, sh *lockTableShard, ls *lockState, txn TxnID, key Key,
) (time.Time, error) {
	holder := ls.holder
	if !m.graph.enqueueLocked(txn, ls) {
		sh.mu.Unlock()
		m.stats.deadlocks.Add(1)
		return time.Time{}, fmt.Errorf("%w (txn %d waiting for key %q held by txn %d)",
			ErrDeadlock, txn, key, holder)
	}
	w := getWaiter(txn)
	now := time.Now()
	w.since = now
	ls.pushBackLocked(w)
	sh.mu.Unlock()
	m.stats.lockWaits.Add(1)
	m.stats.currentWaiters.Add(1)
	defer m.stats.currentWaiters.Add(-1)

	timeout := m.lockWaitTimeout(ctx)
	deadline := now.Add(timeout)
	timer := w.armTimer(timeout)
	var err error
	select {
	case <-w.signal:
	case <-ctx.Done():
		err = fmt.Errorf("lockmgr: txn %d waiting for key %q: %w", txn, key, ctx.Err())
	case <-timer.C:
		err = ErrLockWaitTimeout
	}
	timer.Stop()
	noteWait(ctx, now)
	m.hist.lockWait.Since(now)
	if err != nil {
		sh.mu.Lock()
		if w.granted {
			// The release that granted us ran before we relocked: the signal
			// is in the channel and the lock is ours. Keep it.
			sh.mu.Unlock()
			<-w.signal
			err = nil
		} else {
			ls.removeLocked(w)
			m.graph.leaveLocked(txn, ls)
			sh.mu.Unlock()
			if errors.Is(err, ErrLockWaitTimeout) {
				m.stats.lockWaitTimeouts.Add(1)
			}
		}
	}
	putWaiter(w)
	return deadline, err
}

// ReleaseAll releases every lock txn holds (rollback, or commit once durable
// without ELR) and hands each to the next FIFO waiter.
func (m *Manager) ReleaseAll(txn TxnID) {
	h := m.txns.take(txn)
	if h == nil {
		return
	}
	for _, key := range h.keys {
		sh := m.shardFor(key)
		sh.mu.Lock()
		m.handOnLocked(sh, txn, key)
		sh.mu.Unlock()
	}
	m.txns.recycle(txn, h)
}

// releaseOne hands on a key txn took in a failed Acquire (not yet in its held
// set).
func (m *Manager) releaseOne(txn TxnID, key Key) {
	sh := m.shardFor(key)
	sh.mu.Lock()
	m.handOnLocked(sh, txn, key)
	sh.mu.Unlock()
}

// handOnLocked makes the first waiter the holder of key, or frees key.
func (m *Manager) handOnLocked(sh *lockTableShard, txn TxnID, key Key) {
	ls := sh.mu.locks[key]
	if ls == nil || !ls.held || ls.holder != txn {
		panic(fmt.Sprintf("lockmgr: txn %d releases key %q it does not hold (state %+v)", txn, key, ls))
	}
	w := ls.popFrontLocked()
	if w == nil {
		ls.held, ls.holder = false, 0
		sh.cleanupLocked(key, ls)
		return
	}
	ls.holder = w.txn
	w.granted = true
	m.graph.grantLocked(w.txn, ls)
	w.signal <- struct{}{} // capacity 1 and granted once: never blocks
}

// Holder returns the txn holding key, if any.
func (m *Manager) Holder(key Key) (TxnID, bool) {
	sh := m.shardFor(key)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if ls := sh.mu.locks[key]; ls != nil && ls.held {
		return ls.holder, true
	}
	return 0, false
}

// Stats returns a snapshot of the counters.
func (m *Manager) Stats() Stats {
	return Stats{
		LockWaits:           m.stats.lockWaits.Load(),
		Deadlocks:           m.stats.deadlocks.Load(),
		LockWaitTimeouts:    m.stats.lockWaitTimeouts.Load(),
		EarlyReleases:       m.stats.earlyReleases.Load(),
		DependentLimitWaits: m.stats.dependentLimitWaits.Load(),
		CurrentWaiters:      m.stats.currentWaiters.Load(),
	}
}

type lockWaitKey struct{}

// WithLockWaitTimeout returns a context whose Acquire calls wait at most d
// instead of Options.LockWaitTimeout: a session's own
// innodb_lock_wait_timeout.
func WithLockWaitTimeout(ctx context.Context, d time.Duration) context.Context {
	return context.WithValue(ctx, lockWaitKey{}, d)
}

func (m *Manager) lockWaitTimeout(ctx context.Context) time.Duration {
	if d, ok := ctx.Value(lockWaitKey{}).(time.Duration); ok {
		return max(d, 0)
	}
	if m.opts.LockWaitTimeout == nil {
		return defaultLockWaitTimeout
	}
	return max(m.opts.LockWaitTimeout(), 0)
}

// LockWaitTimeout is how long a lock wait under ctx may last: the
// session's innodb_lock_wait_timeout, else the global one. Waits of other
// kinds that MySQL bounds the same way (a schema change waiting for the
// transactions that wrote its table) use it too.
func (m *Manager) LockWaitTimeout(ctx context.Context) time.Duration { return m.lockWaitTimeout(ctx) }
