package txn

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/plrun/plrun/asynccommit"
	"github.com/plrun/plrun/lockmgr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/wal"
)

// ErrOutcomeUnknown is returned when the log failed after a commit record
// was handed to it: the commit may or may not survive a restart.
var ErrOutcomeUnknown = asynccommit.ErrOutcomeUnknown

// ErrClosed is returned for a commit attempted after the log was closed
// (shutdown): the layers above map it without importing asynccommit.
var ErrClosed = asynccommit.ErrClosed

// ErrNotCommitted is returned by a commit the log refused before giving it
// an LSN (the log had already failed, or the engine is closing): the
// transaction was rolled back.
var ErrNotCommitted = errors.New("transaction rolled back: the log accepts no more commits")

// Manager starts transactions and owns the commit protocol.
type Manager struct {
	catalog atomic.Pointer[storage.Catalog]
	Locks   *lockmgr.Manager
	Pipe    *asynccommit.Pipeline
	Log     *wal.Log

	// ELR reports whether enable_early_lock_release is on.
	ELR func() bool
	// LargeTxn returns the large-transaction settings (seed 004): a redo
	// bigger than maxLogSize is written in chunks of splitSize before its
	// commit record. enabled false, or nil, writes every redo whole.
	LargeTxn func() (enabled bool, maxLogSize, splitSize int)

	latch   sync.RWMutex
	nextTxn atomic.Uint64
	ddlLSN  uint64   // the LSN of the DDL record being applied (under the exclusive latch)
	gates   sync.Map // table id -> *writeGate (gate.go)
	vis     *visibility
	apply   *applier // nil until StartApplier (applier.go)

	// HeaderExtra returns what the catalog header keeps beside tables
	// (the engine's procedures, views, triggers, accounts), for each DDL
	// record the applier applies. Called under the exclusive latch.
	HeaderExtra func() ([]byte, error)
	// OnApplyFailure is told when writing the table store failed: the
	// applier stops, the log keeps everything after the store's applied
	// LSN.
	OnApplyFailure func(error)
	// BeforeTruncate, when set, runs after a checkpoint's flush and before
	// it truncates the log (tests kill the process there).
	BeforeTruncate func(applied uint64)

	stats struct {
		commits, rollbacks, readWaits atomic.Uint64
		largeTxns, chunks             atomic.Uint64
	}
}

// NewManager wires a manager over an open catalog, lock manager and pipeline.
func NewManager(cat *storage.Catalog, locks *lockmgr.Manager, pipe *asynccommit.Pipeline, log *wal.Log) *Manager {
	m := &Manager{Locks: locks, Pipe: pipe, Log: log, ELR: func() bool { return false }, vis: newVisibility(pipe.LastLSN())}
	m.catalog.Store(cat)
	return m
}

// Catalog returns the live catalog.
func (m *Manager) Catalog() *storage.Catalog { return m.catalog.Load() }

// Begin starts a transaction.
func (m *Manager) Begin() *Txn {
	id := m.nextTxn.Add(1)
	return &Txn{ID: id, m: m, live: &Live{ID: id, Started: time.Now()}}
}

// WaitDurable blocks until lsn is durable (0 returns at once). A wait for
// a version another transaction committed counts as a reader wait.
func (m *Manager) WaitDurable(ctx context.Context, lsn uint64) error {
	if lsn == 0 || m.Pipe.DurableLSN() >= lsn {
		return nil
	}
	if err := m.Pipe.WaitDurable(ctx, lsn); err != nil {
		return fmt.Errorf("waiting for LSN %d: %w", lsn, err)
	}
	return nil
}

// NoteReaderWait counts a reader that had to wait for durability.
func (m *Manager) NoteReaderWait() { m.stats.readWaits.Add(1) }

// Stats are the manager's counters.
type Stats struct {
	Commits, Rollbacks, ReaderWaits uint64
	LargeTxns, Chunks               uint64 // transactions whose redo went out in chunks, and the chunks
}

// Stats returns the counters.
func (m *Manager) Stats() Stats {
	return Stats{Commits: m.stats.commits.Load(), Rollbacks: m.stats.rollbacks.Load(), ReaderWaits: m.stats.readWaits.Load(),
		LargeTxns: m.stats.largeTxns.Load(), Chunks: m.stats.chunks.Load()}
}

// largeTxnSplit returns the chunk size for a redo of n bytes, or 0 to
// write it whole.
func (m *Manager) largeTxnSplit(n int) int {
	if m.LargeTxn == nil {
		return 0
	}
	on, maxSize, split := m.LargeTxn()
	if !on || maxSize <= 0 || n <= maxSize {
		return 0
	}
	return max(split, 64)
}

// LogDDL appends a DDL record and runs apply while no commit is between
// Append and install, then waits until the record is durable.
func (m *Manager) LogDDL(ctx context.Context, rec *DDLRecord, apply func() error) error {
	return m.LogDDLAt(ctx, rec, func(uint64) error { return apply() })
}

// LogDDLAt is LogDDL whose apply is told the record's LSN (the rows of
// create_table_rows are installed at it).
func (m *Manager) LogDDLAt(ctx context.Context, rec *DDLRecord, apply func(lsn uint64) error) error {
	payload, err := rec.Encode()
	if err != nil {
		return err
	}
	m.latch.Lock()
	var before map[uint64]bool
	if m.apply != nil {
		before = DataIDs(m.Catalog())
	}
	// The record's LSN is registered like a commit's, so a snapshot taken
	// after the DDL is at or above it (a table rebuilt by ALTER TABLE is
	// read at snapshots from its own LSN on: Txn.checkRebuilt), and sees
	// what it installed (create_table_rows' rows, at lsn).
	m.vis.mu.Lock()
	lsn, err := m.Pipe.Append(wal.KindDDL, payload)
	if err == nil {
		m.vis.registerLocked(lsn)
	}
	m.vis.mu.Unlock()
	if err != nil {
		m.latch.Unlock()
		return fmt.Errorf("logging DDL: %w", err)
	}
	m.ddlLSN = lsn
	err = apply(lsn)
	m.vis.installed(lsn)
	if m.apply != nil && err == nil {
		if eff, herr := m.ddlEffect(before); herr != nil {
			err = herr
		} else {
			m.apply.enqueue(applyItem{lsn: lsn, ddl: eff})
		}
	}
	m.latch.Unlock()
	if err != nil {
		// The record is in the log; replay will fail the same way and skip it.
		return err
	}
	return m.WaitDurable(ctx, lsn)
}

// ddlEffect is the effect of the DDL record just applied (under the
// exclusive latch): the catalog header after it, and a snapshot at its
// LSN for the tables whose rows the applier must write.
func (m *Manager) ddlEffect(before map[uint64]bool) (*DDLEffect, error) {
	header, err := m.header()
	if err != nil {
		return nil, fmt.Errorf("catalog header: %w", err)
	}
	e := DDLEffectOf(before, m.Catalog(), header)
	if len(e.Fill) > 0 {
		e.Snap, e.held = m.vis.acquire(0), true
	}
	return e, nil
}

// header is the catalog header as of now.
func (m *Manager) header() ([]byte, error) {
	var extra []byte
	if m.HeaderExtra != nil {
		var err error
		if extra, err = m.HeaderExtra(); err != nil {
			return nil, err
		}
	}
	return m.Catalog().Header(extra)
}

// Checkpoint makes the table store durable up to what it has applied
// and truncates the log before that LSN (doc.go: the log is never
// dropped past an LSN the store has not made durable). Its work is what
// changed since the last one: pebble flushes its memtables, no table is
// rewritten.
func (m *Manager) Checkpoint(ctx context.Context) (uint64, error) {
	a := m.apply
	if a == nil {
		return 0, errors.New("txn: no table store")
	}
	// Every record up to lsn is queued for the applier (commits enqueue
	// under vis.mu right after their Append).
	m.vis.mu.Lock()
	lsn := m.Pipe.LastLSN()
	m.vis.mu.Unlock()
	if err := m.Pipe.Flush(ctx); err != nil {
		return 0, err
	}
	if err := m.WaitDurable(ctx, lsn); err != nil {
		return 0, err
	}
	if err := m.WaitApplied(ctx, lsn); err != nil {
		return 0, err
	}
	applied, err := a.store.Flush()
	if err != nil {
		return 0, err
	}
	if m.BeforeTruncate != nil {
		m.BeforeTruncate(applied)
	}
	if err := m.Log.TruncateBefore(applied); err != nil {
		return 0, fmt.Errorf("truncating log: %w", err)
	}
	horizon := min(applied, m.vis.horizon())
	for _, t := range m.Catalog().AllTables() {
		t.Purge(horizon)
	}
	return applied, nil
}

// IsOutcomeUnknown reports whether err came from a failed log.
func IsOutcomeUnknown(err error) bool { return errors.Is(err, asynccommit.ErrOutcomeUnknown) }

// AcquireSnapshot takes a snapshot (the visible LSN) and keeps the row
// versions it needs until ReleaseSnapshot: a schema change copies a table
// from it while commits go on.
func (m *Manager) AcquireSnapshot() uint64 { return m.vis.acquire(0) }

// ReleaseSnapshot releases a snapshot AcquireSnapshot took.
func (m *Manager) ReleaseSnapshot(snap uint64) { m.vis.release(snap) }

// WaitAllDurable waits until every LSN assigned so far is durable.
func (m *Manager) WaitAllDurable(ctx context.Context) error {
	if err := m.Pipe.Flush(ctx); err != nil {
		return err
	}
	return m.WaitDurable(ctx, m.Pipe.LastLSN())
}

// DDLLSN is, inside LogDDL's apply, the LSN of the record being applied.
func (m *Manager) DDLLSN() uint64 { return m.ddlLSN }
