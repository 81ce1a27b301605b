package lockmgr

import (
	"hash/maphash"
	"sync"
	"time"
)

// numLockShards spreads keys over independently locked shards. A power of
// two, so the shard is picked with a mask.
const numLockShards = 64

// maxFreeLockStates bounds each shard's free list of lockStates, which lets a
// hot key be freed and recreated on every acquire/release without allocating.
const maxFreeLockStates = 16

var keySeed = maphash.MakeSeed()

// lockTableShard owns the lockStates of the keys that hash to it.
type lockTableShard struct {
	mu struct {
		sync.Mutex
		locks map[Key]*lockState
		free  []*lockState
		// elrQueue lists (key, lsn) for every mark recorded in this shard, in
		// the order recorded (which is LSN order up to small races); entries
		// before elrHead are consumed. It lets marks of keys nobody touches
		// again be purged, so idle keys do not stay in the table.
		elrQueue []elrEntry
		elrHead  int
	}
	_ [64]byte // keep hot shards on separate cache lines
}

// lockState is one key's lock. A key is in its shard's table while it is
// held, has waiters, or carries ELR marks. Invariant: a key with waiters is
// held (release hands it on directly).
type lockState struct {
	// Protected by the shard's mu.
	held       bool
	holder     TxnID
	head, tail *waiter  // FIFO queue of waiters
	marks      []uint64 // pending ELR mark LSNs, ascending

	// waitHolder mirrors holder for the deadlock detector while the key has
	// waiters. Protected by waitsForGraph.mu (written with both mutexes held).
	waitHolder TxnID
}

// waiter is one queued Acquire. Waiters are pooled with their signal channel
// and timer so that a wait does not allocate.
type waiter struct {
	txn TxnID
	// signal receives exactly one value when the lock is handed to txn.
	signal chan struct{}
	timer  *time.Timer
	// granted is set, under the shard's mu, by the releaser that makes txn
	// the holder; the waiter re-checks it there when its ctx or timer fires.
	granted    bool
	prev, next *waiter
	// since is when the wait began (Locks reports it). Protected by the
	// shard's mu while w is queued.
	since time.Time
}

var waiterPool = sync.Pool{New: func() any { return &waiter{signal: make(chan struct{}, 1)} }}

func getWaiter(txn TxnID) *waiter {
	w := waiterPool.Get().(*waiter)
	w.txn = txn
	return w
}

// putWaiter recycles w; its signal channel is empty and its timer stopped.
func putWaiter(w *waiter) {
	w.granted = false
	w.prev, w.next = nil, nil
	waiterPool.Put(w)
}

// armTimer starts w's timer for d. Since Go 1.23 a stopped or reset timer
// never delivers a stale value, so reuse is safe.
func (w *waiter) armTimer(d time.Duration) *time.Timer {
	if w.timer == nil {
		w.timer = time.NewTimer(d)
	} else {
		w.timer.Reset(d)
	}
	return w.timer
}

func (m *Manager) shardFor(key Key) *lockTableShard {
	return &m.shards[maphash.String(keySeed, string(key))&(numLockShards-1)]
}

func (sh *lockTableShard) getOrCreateLocked(key Key) *lockState {
	if ls := sh.mu.locks[key]; ls != nil {
		return ls
	}
	var ls *lockState
	if n := len(sh.mu.free); n > 0 {
		ls = sh.mu.free[n-1]
		sh.mu.free = sh.mu.free[:n-1]
	} else {
		ls = &lockState{}
	}
	sh.mu.locks[key] = ls
	return ls
}

// cleanupLocked drops key from the table once nothing refers to it: not held,
// so no waiters either, and no pending marks.
func (sh *lockTableShard) cleanupLocked(key Key, ls *lockState) {
	if ls.held || ls.head != nil || len(ls.marks) > 0 {
		return
	}
	delete(sh.mu.locks, key)
	if len(sh.mu.free) < maxFreeLockStates {
		ls.holder, ls.waitHolder = 0, 0
		ls.marks = ls.marks[:0]
		sh.mu.free = append(sh.mu.free, ls)
	}
}

func (ls *lockState) pushBackLocked(w *waiter) {
	w.prev, w.next = ls.tail, nil
	if ls.tail == nil {
		ls.head = w
	} else {
		ls.tail.next = w
	}
	ls.tail = w
}

func (ls *lockState) popFrontLocked() *waiter {
	w := ls.head
	if w != nil {
		ls.removeLocked(w)
	}
	return w
}

func (ls *lockState) removeLocked(w *waiter) {
	if w.prev == nil {
		ls.head = w.next
	} else {
		w.prev.next = w.next
	}
	if w.next == nil {
		ls.tail = w.prev
	} else {
		w.next.prev = w.prev
	}
	w.prev, w.next = nil, nil
}
