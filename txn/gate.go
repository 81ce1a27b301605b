package txn

import (
	"context"
	"errors"
	"sync"
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
	mu      sync.Mutex
	writers int
	closed  bool
	changed chan struct{} // closed (and replaced) at every change of state
}

func (g *writeGate) signalLocked() {
	close(g.changed)
	g.changed = make(chan struct{})
}

func (m *Manager) gate(id uint64) *writeGate {
	m.gatesMu.Lock()
	defer m.gatesMu.Unlock()
	if m.gates == nil {
		m.gates = map[uint64]*writeGate{}
	}
	g := m.gates[id]
	if g == nil {
		g = &writeGate{changed: make(chan struct{})}
		m.gates[id] = g
	}
	return g
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
		g.mu.Lock()
		if !g.closed {
			if t.Dropped() {
				g.mu.Unlock()
				return ErrTableChanged
			}
			g.writers++
			g.mu.Unlock()
			x.entered = append(x.entered, id)
			return nil
		}
		ch := g.changed
		g.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return context.Cause(ctx)
		}
	}
}

// leaveTables leaves every gate x entered (its end: commit or rollback).
func (x *Txn) leaveTables() {
	for _, id := range x.entered {
		g := x.m.gate(id)
		g.mu.Lock()
		g.writers--
		if g.writers == 0 && g.closed {
			g.signalLocked()
		}
		g.mu.Unlock()
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
	claimed := false
	for {
		g.mu.Lock()
		if !claimed && !g.closed {
			g.closed, claimed = true, true
		}
		if claimed && g.writers == 0 {
			g.mu.Unlock()
			return nil
		}
		ch := g.changed
		g.mu.Unlock()
		var err error
		select {
		case <-ch:
			continue
		case <-ctx.Done():
			err = context.Cause(ctx)
		case <-deadline:
			err = lockmgr.ErrLockWaitTimeout
		}
		if claimed {
			g.open()
		}
		return err
	}
}

func (g *writeGate) open() {
	g.mu.Lock()
	g.closed = false
	g.signalLocked()
	g.mu.Unlock()
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
