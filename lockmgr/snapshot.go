package lockmgr

import "time"

// HeldLock is one held key and the transactions queued for it, as Locks
// reports them (information_schema.PLRUN_LOCKS and PLRUN_LOCK_WAITS).
type HeldLock struct {
	Key     Key
	Holder  TxnID
	Waiters []WaitingTxn // FIFO order: the first is granted next
}

// WaitingTxn is a transaction waiting for a key since Since.
type WaitingTxn struct {
	Txn   TxnID
	Since time.Time
}

// Locks lists every held key with its waiters. It locks one shard at a
// time, only to copy that shard's held keys, so the lock path is slowed
// by no more than one short critical section per shard; the list is
// consistent per shard, not across shards (a lock can move between the
// copies of two shards).
func (m *Manager) Locks() []HeldLock {
	var out []HeldLock
	for i := range m.shards {
		sh := &m.shards[i]
		sh.mu.Lock()
		for key, ls := range sh.mu.locks {
			if !ls.held {
				continue // only ELR marks are left on it
			}
			h := HeldLock{Key: key, Holder: ls.holder}
			for w := ls.head; w != nil; w = w.next {
				h.Waiters = append(h.Waiters, WaitingTxn{Txn: w.txn, Since: w.since})
			}
			out = append(out, h)
		}
		sh.mu.Unlock()
	}
	return out
}
