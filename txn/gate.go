package txn

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/plrun/plrun/lockmgr"
	"github.com/plrun/plrun/storage"
)

// ErrTableChanged is returned by a write to a table that a schema change
// replaced (ALTER TABLE, RENAME TABLE, DROP, TRUNCATE) after the statement
// found it: the statement has written nothing there and may be run again
// against the new table (MySQL's 1412 when it cannot).
var ErrTableChanged = errors.New("txn: table definition has changed")

// ErrSnapshotTooOld is returned by a statement that read, at a snapshot
// older than the change, a table ALTER TABLE rebuilt with a new primary key
// (whose rows keep no older versions): MySQL's 1412. A statement's own
// snapshot is simply taken again; a REPEATABLE READ read view cannot be.
var ErrSnapshotTooOld = errors.New("txn: snapshot older than the table's definition")

// checkRebuilt notes a read of t at a snapshot older than its rebuild.
func (x *Txn) checkRebuilt(t *storage.Table) {
	if at := t.RebuiltAt(); at > 0 {
		if snap := x.snapshot(); snap != storage.Newest && snap < at {
			x.stale = true
		}
	}
}

// StaleRead returns ErrSnapshotTooOld if the statement read a table at a
// snapshot older than its rebuild (what it read is then not to be used),
// and forgets it.
func (x *Txn) StaleRead() error {
	if !x.stale {
		return nil
	}
	x.stale = false
	return ErrSnapshotTooOld
}

// HasReadView reports whether the transaction holds a REPEATABLE READ
// read view.
func (x *Txn) HasReadView() bool { return x.hasView }

// A write gate is the part of MySQL's metadata lock that plrun needs: a
// transaction enters a table's gate at its first write to it and leaves
// when it ends (shared), and a schema change closes the gate (exclusive):
// new writers wait at the gate, and the change waits until the writers
// inside have ended, bounded by the lock wait timeout. Readers never use
// it. Gates are per table id; RENAME TABLE keeps the id, so the renamed
// table shares its gate.
type writeGate struct {
	// writers and closed are the fast path: a writer adds itself, then
	// looks at closed; a schema change sets closed, then looks at writers.
	// (Go's atomics are sequentially consistent, so one of the two always
	// sees the other.) mu and changed only carry the waits.
	writers atomic.Int64
	closed  atomic.Bool
	mu      sync.Mutex
	changed chan struct{} // closed (and replaced) at every change of state
}

func (g *writeGate) signal() {
	g.mu.Lock()
	close(g.changed)
	g.changed = make(chan struct{})
	g.mu.Unlock()
}

func (g *writeGate) waitChan() <-chan struct{} {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.changed
}

func (m *Manager) gate(id uint64) *writeGate {
	if g, ok := m.gates.Load(id); ok {
		return g.(*writeGate)
	}
	g, _ := m.gates.LoadOrStore(id, &writeGate{changed: make(chan struct{})})
	return g.(*writeGate)
}

// enterTable lets x write t: it waits while a schema change holds t's
// gate, then fails with ErrTableChanged if t was replaced meanwhile.
func (x *Txn) enterTable(ctx context.Context, t *storage.Table) error {
	id := t.Def.ID
	for _, e := range x.entered {
		if e == id {
			return nil
		}
	}
	g := x.m.gate(id)
	for {
		ch := g.waitChan()
		g.writers.Add(1)
		if !g.closed.Load() {
			if t.Dropped() {
				g.leave()
				return ErrTableChanged
			}
			x.entered = append(x.entered, id)
			return nil
		}
		g.leave()
		select {
		case <-ch:
		case <-ctx.Done():
			return context.Cause(ctx)
		}
	}
}

func (g *writeGate) leave() {
	if g.writers.Add(-1) == 0 && g.closed.Load() {
		g.signal()
	}
}

// leaveTables leaves every gate x entered (its end: commit or rollback).
func (x *Txn) leaveTables() {
	for _, id := range x.entered {
		x.m.gate(id).leave()
	}
	x.entered = nil
}

// TableLock is a schema change's hold on the write gates of its tables.
type TableLock struct {
	m     *Manager
	gates []*writeGate
}

// LockTables closes the write gates of the tables with the given ids and
// waits until no transaction is inside them, at most the lock wait
// timeout (lockmgr.ErrLockWaitTimeout: MySQL's 1205 for a metadata lock
// wait). New writers wait from the moment it starts. Ids are taken in
// increasing order, so two schema changes never deadlock on each other.
func (m *Manager) LockTables(ctx context.Context, ids ...uint64) (*TableLock, error) {
	sortIDs(ids)
	l := &TableLock{m: m}
	deadline := time.NewTimer(m.Locks.LockWaitTimeout(ctx))
	defer deadline.Stop()
	for i, id := range ids {
		if i > 0 && id == ids[i-1] {
			continue
		}
		g := m.gate(id)
		if err := g.close(ctx, deadline.C); err != nil {
			l.Unlock()
			return nil, err
		}
		l.gates = append(l.gates, g)
	}
	return l, nil
}

func (g *writeGate) close(ctx context.Context, deadline <-chan time.Time) error {
	// Wait for another schema change holding the gate to open it.
	for !g.closed.CompareAndSwap(false, true) {
		ch := g.waitChan()
		if !g.closed.Load() {
			continue
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return context.Cause(ctx)
		case <-deadline:
			return lockmgr.ErrLockWaitTimeout
		}
	}
	for {
		ch := g.waitChan()
		if g.writers.Load() == 0 {
			return nil
		}
		var err error
		select {
		case <-ch:
			continue
		case <-ctx.Done():
			err = context.Cause(ctx)
		case <-deadline:
			err = lockmgr.ErrLockWaitTimeout
		}
		g.open()
		return err
	}
}

func (g *writeGate) open() {
	g.closed.Store(false)
	g.signal()
}

// Unlock opens the gates again; writers waiting at them go on (and find
// the table replaced, if it was).
func (l *TableLock) Unlock() {
	for _, g := range l.gates {
		g.open()
	}
	l.gates = nil
}

func sortIDs(ids []uint64) {
	for i := 1; i < len(ids); i++ {
		for j := i; j > 0 && ids[j] < ids[j-1]; j-- {
			ids[j], ids[j-1] = ids[j-1], ids[j]
		}
	}
}
