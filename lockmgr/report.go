package lockmgr

import (
	"fmt"
	"strings"
	"time"
)

// What the lock manager tells about a wait, for PROCESSLIST, SHOW ENGINE
// PLRUN STATUS and the error log. Everything here is gathered on a path
// that already waits (an enqueue, a deadlock, a timeout) or when a report
// is read; the uncontended Acquire pays nothing for it.

// Wait is what a transaction is waiting for in the lock manager now.
type Wait struct {
	Key   Key
	Since time.Time
	// Holder holds Key (a queue wait). For a dependent wait (Dependents)
	// the transaction holds Key itself and waits for the commits that
	// released it early to become durable; Holder is zero then.
	Holder     TxnID
	Dependents bool
}

// CycleEdge is one step of a deadlock cycle: Txn waits for Key, which
// Holder holds.
type CycleEdge struct {
	Txn    TxnID
	Key    Key
	Holder TxnID
}

// DeadlockError is ErrDeadlock with the cycle that was found. Cycle[0] is
// the requester, the victim: its wait would have closed the cycle, and
// the last edge's Holder is the victim again.
type DeadlockError struct {
	Cycle []CycleEdge
}

func (e *DeadlockError) Error() string {
	var b strings.Builder
	b.WriteString(ErrDeadlock.Error())
	for _, c := range e.Cycle {
		fmt.Fprintf(&b, "; txn %d waits for key %q held by txn %d", c.Txn, c.Key, c.Holder)
	}
	return b.String()
}

// Unwrap makes errors.Is(err, ErrDeadlock) hold.
func (e *DeadlockError) Unwrap() error { return ErrDeadlock }

// LockWaitTimeoutError is ErrLockWaitTimeout with the wait that timed out.
type LockWaitTimeoutError struct {
	Txn    TxnID
	Key    Key
	Holder TxnID // who held Key when the wait ended; zero for a dependent wait
	Waited time.Duration
	// Dependents: the wait was for ELR dependents of Key (Txn held it).
	Dependents bool
}

func (e *LockWaitTimeoutError) Error() string {
	if e.Dependents {
		return fmt.Sprintf("%s (txn %d waiting for ELR dependents of key %q)", ErrLockWaitTimeout, e.Txn, e.Key)
	}
	return fmt.Sprintf("%s (txn %d waiting for key %q held by txn %d)", ErrLockWaitTimeout, e.Txn, e.Key, e.Holder)
}

// Unwrap makes errors.Is(err, ErrLockWaitTimeout) hold.
func (e *LockWaitTimeoutError) Unwrap() error { return ErrLockWaitTimeout }

// WaitOf reports what txn waits for now: a queued wait for a key another
// transaction holds, or a dependent wait (see the package comment).
func (m *Manager) WaitOf(txn TxnID) (Wait, bool) {
	if w, ok := m.graph.waitOf(txn); ok {
		return w, true
	}
	m.depWaits.Lock()
	defer m.depWaits.Unlock()
	w, ok := m.depWaits.m[txn]
	return w, ok
}

// DependentWaits lists the transactions in a dependent-limit wait now,
// each holding its key (SHOW ENGINE PLRUN STATUS).
func (m *Manager) DependentWaits() map[TxnID]Wait {
	m.depWaits.Lock()
	defer m.depWaits.Unlock()
	out := make(map[TxnID]Wait, len(m.depWaits.m))
	for txn, w := range m.depWaits.m {
		out[txn] = w
	}
	return out
}

// noteDependentWait records (or, with done, forgets) that txn waits for
// key's ELR dependents. It runs only on the dependent-limit path, which
// waits for a log sync anyway.
func (m *Manager) noteDependentWait(txn TxnID, key Key, since time.Time, done bool) {
	m.depWaits.Lock()
	if done {
		delete(m.depWaits.m, txn)
	} else {
		if m.depWaits.m == nil {
			m.depWaits.m = map[TxnID]Wait{}
		}
		m.depWaits.m[txn] = Wait{Key: key, Since: since, Dependents: true}
	}
	m.depWaits.Unlock()
}
