package lockmgr

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"
)

// elrEntry remembers that key got an elrMark{lsn}, so the shard can purge it
// once durable even if the key is never touched again.
type elrEntry struct {
	key Key
	lsn uint64
}

// ReleaseEarly is early lock release: txn's commit record has LSN lsn, not
// yet durable. Every lock txn holds is handed on now, and each key keeps an
// elrMark{lsn} until Durability.DurableLSN() >= lsn (purged lazily by later
// calls that touch the key's shard). Counts EarlyReleases once per call that
// released at least one lock.
func (m *Manager) ReleaseEarly(txn TxnID, lsn uint64) {
	h := m.txns.take(txn)
	if h == nil {
		return
	}
	m.stats.earlyReleases.Add(1)
	for _, key := range h.keys {
		sh := m.shardFor(key)
		sh.mu.Lock()
		durable, _ := m.purgeShardLocked(sh)
		if m.opts.Durability != nil && lsn > durable {
			ls := sh.mu.locks[key]
			if ls != nil {
				ls.addMark(lsn)
				sh.mu.elrQueue = append(sh.mu.elrQueue, elrEntry{key: key, lsn: lsn})
			}
		}
		m.handOnLocked(sh, txn, key)
		sh.mu.Unlock()
	}
	m.txns.recycle(txn, h)
}

// PendingDependents returns how many not yet durable elrMarks key carries.
func (m *Manager) PendingDependents(key Key) int {
	sh := m.shardFor(key)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	durable, _ := m.purgeShardLocked(sh)
	ls := sh.mu.locks[key]
	if ls == nil {
		return 0
	}
	ls.purgeMarks(durable)
	n := len(ls.marks)
	sh.cleanupLocked(key, ls)
	return n
}

// addMark inserts lsn keeping marks ascending. Successive holders of a key
// commit at increasing LSNs (invariant 2), so this is almost always an append.
func (ls *lockState) addMark(lsn uint64) {
	i := len(ls.marks)
	for i > 0 && ls.marks[i-1] > lsn {
		i--
	}
	ls.marks = slices.Insert(ls.marks, i, lsn)
}

// purgeMarks drops the marks that are durable.
func (ls *lockState) purgeMarks(durable uint64) {
	n := 0
	for n < len(ls.marks) && ls.marks[n] <= durable {
		n++
	}
	if n > 0 {
		ls.marks = append(ls.marks[:0], ls.marks[n:]...)
	}
}

// purgeShardLocked consumes the shard's elrQueue up to the durable LSN,
// purging those keys and dropping the ones left idle. It reads DurableLSN
// only when the shard has marks; ok reports whether durable was read.
func (m *Manager) purgeShardLocked(sh *lockTableShard) (durable uint64, ok bool) {
	if sh.mu.elrHead == len(sh.mu.elrQueue) || m.opts.Durability == nil {
		return 0, false
	}
	durable = m.opts.Durability.DurableLSN()
	q := sh.mu.elrQueue
	i := sh.mu.elrHead
	for ; i < len(q) && q[i].lsn <= durable; i++ {
		if ls := sh.mu.locks[q[i].key]; ls != nil {
			ls.purgeMarks(durable)
			sh.cleanupLocked(q[i].key, ls)
		}
		q[i] = elrEntry{}
	}
	sh.mu.elrHead = i
	if i == len(q) {
		sh.mu.elrQueue, sh.mu.elrHead = q[:0], 0
	} else if i > len(q)/2 {
		n := copy(q, q[i:])
		clear(q[n:])
		sh.mu.elrQueue, sh.mu.elrHead = q[:n], 0
	}
	return durable, true
}

// dependentLimitLocked is called when the caller has just become the holder
// of ls. It purges durable marks and, if n >= MaxELRDependents marks are still
// pending, returns the LSN whose durability brings n below the limit.
func (m *Manager) dependentLimitLocked(ls *lockState, durable uint64, haveDurable bool) (uint64, bool) {
	if len(ls.marks) == 0 || m.opts.Durability == nil {
		return 0, false
	}
	if !haveDurable {
		durable = m.opts.Durability.DurableLSN()
	}
	ls.purgeMarks(durable)
	limit := 0
	if m.opts.MaxELRDependents != nil {
		limit = m.opts.MaxELRDependents()
	}
	n := len(ls.marks)
	if limit <= 0 || n < limit {
		return 0, false
	}
	return ls.marks[n-limit], true
}

// waitForDependents waits, holding key, until lsn is durable. deadline is
// when the lock wait timeout that started with the queue wait ends (zero if
// Acquire did not queue).
func (m *Manager) waitForDependents(
	ctx context.Context, txn TxnID, key Key, lsn uint64, deadline time.Time,
) error {
	m.stats.dependentLimitWaits.Add(1)
	if deadline.IsZero() {
		deadline = time.Now().Add(m.lockWaitTimeout(ctx))
	}
	waitCtx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	start := time.Now()
	err := m.opts.Durability.WaitDurable(waitCtx, lsn)
	m.hist.dependentWait.Since(start)
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return fmt.Errorf("lockmgr: txn %d waiting for ELR dependents of key %q: %w", txn, key, ctx.Err())
	case errors.Is(err, context.DeadlineExceeded) && waitCtx.Err() != nil:
		m.stats.lockWaitTimeouts.Add(1)
		return ErrLockWaitTimeout
	default:
		return fmt.Errorf("lockmgr: txn %d waiting for commit LSN %d (ELR dependents of key %q): %w",
			txn, lsn, key, err)
	}
}
