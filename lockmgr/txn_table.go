package lockmgr

import "sync"

const numTxnShards = 16

// txnTable maps each txn to the keys it holds, for ReleaseAll/ReleaseEarly.
// Only a txn's own goroutine adds to or takes its entry (see the concurrency
// contract), so the entry needs no lock of its own; the shard mutex guards the
// maps. A txn's keys are added after the lock is fully acquired, so a key
// briefly held inside Acquire is not yet listed: nobody else can release it.
type txnTable struct {
	shards [numTxnShards]txnShard
}

type txnShard struct {
	mu struct {
		sync.Mutex
		held map[TxnID]*heldLocks
		free []*heldLocks
	}
	_ [64]byte
}

// heldLocks lists a txn's keys in acquisition order.
type heldLocks struct {
	keys []Key
}

const maxFreeHeldLocks = 64

func (t *txnTable) init() {
	for i := range t.shards {
		t.shards[i].mu.held = make(map[TxnID]*heldLocks)
	}
}

func (t *txnTable) shardFor(txn TxnID) *txnShard {
	// Fibonacci hashing spreads sequential IDs.
	return &t.shards[(uint64(txn)*0x9E3779B97F4A7C15)>>60]
}

func (t *txnTable) add(txn TxnID, key Key) {
	s := t.shardFor(txn)
	s.mu.Lock()
	h := s.mu.held[txn]
	if h == nil {
		if n := len(s.mu.free); n > 0 {
			h = s.mu.free[n-1]
			s.mu.free = s.mu.free[:n-1]
		} else {
			h = &heldLocks{}
		}
		s.mu.held[txn] = h
	}
	h.keys = append(h.keys, key)
	s.mu.Unlock()
}

// take removes and returns txn's entry (nil if it holds nothing).
func (t *txnTable) take(txn TxnID) *heldLocks {
	s := t.shardFor(txn)
	s.mu.Lock()
	h := s.mu.held[txn]
	delete(s.mu.held, txn)
	s.mu.Unlock()
	return h
}

func (t *txnTable) recycle(txn TxnID, h *heldLocks) {
	clear(h.keys)
	h.keys = h.keys[:0]
	s := t.shardFor(txn)
	if cap(h.keys) > 1024 {
		return // do not keep a huge transaction's slice around
	}
	s.mu.Lock()
	if len(s.mu.free) < maxFreeHeldLocks {
		s.mu.free = append(s.mu.free, h)
	}
	s.mu.Unlock()
}
