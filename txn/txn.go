package txn

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/plrun/plrun/lockmgr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
	"github.com/plrun/plrun/wal"
)

// Txn is one transaction. It is used by one goroutine.
type Txn struct {
	ID uint64
	m  *Manager

	touched    map[*storage.Row]*storage.Table // rows with a pending write
	order      []*storage.Row                  // first-touch order, for redo
	undo       []undoRec
	savepoints []savepoint
	readLSN    uint64
	commitLSN  uint64
	snap       uint64 // the current statement's snapshot, when hasSnap
	hasSnap    bool
	ownSnap    bool // snap is the statement's own (released at EndStatement), not the read view
	isolation  Isolation
	view       uint64 // REPEATABLE READ: the transaction's read view, when hasView
	hasView    bool
	hasLocks   bool
	done       bool
	entered    []uint64 // ids of the tables whose write gate x is inside (gate.go)
	stale      bool     // read a rebuilt table at a snapshot older than its rebuild

	// live is what others may read while it runs (PLRUN_TRX).
	live *Live
	// state, when set (SetStateSink), is where a commit that waits for
	// its log sync says so (the session's PROCESSLIST State).
	state *atomic.Pointer[string]
}

// StateLogSync is the PROCESSLIST State of a commit waiting for its log
// sync.
var StateLogSync = "waiting for log sync"

// SetStateSink makes the transaction's waits for the log visible in
// *state (the PROCESSLIST State of the session driving it): a commit
// that must wait stores &StateLogSync there and puts the previous value
// back after. A commit that needs no wait stores nothing.
func (x *Txn) SetStateSink(state *atomic.Pointer[string]) { x.state = state }

// Live is what other goroutines may read of a transaction while it runs
// (information_schema.PLRUN_TRX): its methods are safe from any
// goroutine. It is apart from the Txn so that holding it keeps none of
// the transaction's writes alive.
type Live struct {
	ID      uint64
	Started time.Time
	rows    atomic.Int32
	ended   atomic.Bool
}

// RowsChanged is how many rows the transaction has written so far.
func (l *Live) RowsChanged() int { return int(l.rows.Load()) }

// Ended reports whether the transaction has committed or rolled back.
func (l *Live) Ended() bool { return l.ended.Load() }

// Live is the transaction's view for other goroutines.
func (x *Txn) Live() *Live { return x.live }

type undoRec struct {
	t     *storage.Table
	r     *storage.Row
	prev  *storage.Pending
	first bool // this write added r to touched
}

type savepoint struct {
	name string
	mark int
}

// lockKey names a row for the lock manager.
func lockKey(t *storage.Table, rowKey string) lockmgr.Key {
	return lockmgr.Key(strconv.FormatUint(t.Def.ID, 10) + "/" + rowKey)
}

// UniqueLockKey names a unique-index value for the lock manager, so two
// transactions inserting the same value serialize.
func UniqueLockKey(t *storage.Table, idx int, key string) lockmgr.Key {
	return lockmgr.Key(strconv.FormatUint(t.Def.ID, 10) + "/u" + strconv.Itoa(idx) + "/" + key)
}

// Lock takes the exclusive row lock on t's row with rowKey.
func (x *Txn) Lock(ctx context.Context, t *storage.Table, rowKey string) error {
	if err := x.enterTable(ctx, t); err != nil {
		return err
	}
	x.hasLocks = true
	return x.m.Locks.Acquire(ctx, lockmgr.TxnID(x.ID), lockKey(t, rowKey))
}

// LockKey takes an exclusive lock on an arbitrary key (unique values).
func (x *Txn) LockKey(ctx context.Context, k lockmgr.Key) error {
	x.hasLocks = true
	return x.m.Locks.Acquire(ctx, lockmgr.TxnID(x.ID), k)
}

// Read is a current read, for writers holding the row's lock: the
// transaction's own write or the newest committed version. It remembers
// the LSN of a committed version so the reply can wait for it.
func (x *Txn) Read(t *storage.Table, r *storage.Row) storage.Version {
	v := t.Read(r, x.ID, storage.Newest)
	x.NoteRead(v.LSN)
	return v
}

// BeginStatement takes the snapshot a statement's plain reads use; it sees
// at least every commit up to atLeast (the session's own). consistent says
// the statement is a consistent (non-locking) read, a plain SELECT: under
// REPEATABLE READ it reads at the transaction's read view, taken at its
// first consistent read (or START TRANSACTION WITH CONSISTENT SNAPSHOT)
// and kept until the transaction ends, as InnoDB does. Every other
// statement (writes, locking reads) takes a fresh snapshot, so it finds
// the newest committed rows, which it then locks and reads current. Call
// EndStatement when the statement is done.
func (x *Txn) BeginStatement(atLeast uint64, consistent bool) {
	x.EndStatement()
	x.stale = false
	if consistent && x.isolation == RepeatableRead {
		x.TakeReadView(atLeast)
		if x.hasView {
			x.snap, x.hasSnap, x.ownSnap = x.view, true, false
			return
		}
	}
	x.snap = x.m.vis.acquire(atLeast)
	x.hasSnap, x.ownSnap = true, true
}

// TakeReadView takes the REPEATABLE READ read view now if the transaction
// has none yet (START TRANSACTION WITH CONSISTENT SNAPSHOT). The view is
// registered as a snapshot in use until the transaction ends, so the row
// versions it reads are kept (visibility.horizon).
func (x *Txn) TakeReadView(atLeast uint64) {
	if x.isolation != RepeatableRead || x.hasView || x.done {
		return
	}
	x.view = x.m.vis.acquire(atLeast)
	x.hasView = true
}

// EndStatement releases the statement's snapshot (not the read view).
func (x *Txn) EndStatement() {
	if x.hasSnap {
		if x.ownSnap {
			x.m.vis.release(x.snap)
		}
		x.hasSnap, x.ownSnap = false, false
	}
}

// endSnapshots releases the statement's snapshot and the read view: the
// transaction is over.
func (x *Txn) endSnapshots() {
	x.EndStatement()
	if x.hasView {
		x.m.vis.release(x.view)
		x.hasView = false
	}
}

func (x *Txn) snapshot() uint64 {
	if x.hasSnap {
		return x.snap
	}
	return storage.Newest
}

// ReadSnapshot is a plain (consistent) read at the statement's snapshot.
func (x *Txn) ReadSnapshot(t *storage.Table, r *storage.Row) storage.Version {
	x.checkRebuilt(t)
	v := t.Read(r, x.ID, x.snapshot())
	x.NoteRead(v.LSN)
	return v
}

// Scan reads t at the statement's snapshot. The caller notes the LSNs of
// the items it uses.
func (x *Txn) Scan(t *storage.Table) []storage.ScanItem {
	x.checkRebuilt(t)
	return t.Scan(x.ID, x.snapshot())
}

// ScanRange is Scan of the rows whose first primary-key column is within
// [lo, hi] (nil: unbounded).
func (x *Txn) ScanRange(t *storage.Table, lo, hi *types.Value) []storage.ScanItem {
	x.checkRebuilt(t)
	return t.ScanRange(x.ID, x.snapshot(), lo, hi)
}

// ScanEach calls fn, in primary-key order, for each row of t (whose first
// primary-key column is within [lo, hi], nil: unbounded) the statement's
// snapshot sees, and each deletion it sees (Vals nil), until fn returns
// false: Scan without holding every row at once. fn runs without the
// table's lock; the caller notes the LSNs of the items it uses.
//
// The rows are those the transaction saw when the scan began, as Scan
// returns them: a row of t that fn writes (a stored function the filter
// calls) is read, when the scan reaches it, as it was before that write;
// a row fn deletes is still read, and a row fn inserts is not read at all
// (else a function inserting rows ahead of the scan would feed it
// forever).
func (x *Txn) ScanEach(t *storage.Table, lo, hi *types.Value, fn func(storage.ScanItem) bool) {
	x.checkRebuilt(t)
	snap := x.snapshot()
	if t.Def.PrimaryKey() == nil {
		lo, hi = nil, nil
	}
	// fn's writes are the undo records from mark on; before holds, for
	// each row of t they wrote, its pending write before the first (nil:
	// none), and gone the rows among them deleted since, which the scan
	// no longer meets.
	mark := len(x.undo)
	noted := mark
	var before map[*storage.Row]*storage.Pending
	var gone []*storage.Row
	note := func() {
		mark = min(mark, len(x.undo)) // a rollback inside fn
		noted = min(max(noted, mark), len(x.undo))
		for ; noted < len(x.undo); noted++ {
			u := x.undo[noted]
			if u.t != t {
				continue
			}
			if before == nil {
				before = map[*storage.Row]*storage.Pending{}
			}
			if _, ok := before[u.r]; !ok {
				before[u.r] = u.prev
			}
			if p := t.PendingOf(u.r); p != nil && p.Vals == nil && !slices.Contains(gone, u.r) {
				gone = append(gone, u.r)
			}
		}
	}
	// asBegun is r's item as the scan would have read it before fn's
	// writes; ok is false when it would not have read it.
	asBegun := func(r *storage.Row, it storage.ScanItem) (storage.ScanItem, bool) {
		prev, written := before[r]
		switch {
		case !written:
			return it, true
		case prev != nil && prev.Owner == x.ID:
			v := storage.Version{Vals: prev.Vals, Own: true}
			return storage.ScanItem{Row: r, Version: v}, v.Vals != nil
		}
		v := t.Read(r, 0, snap) // the committed version the snapshot sees
		return storage.ScanItem{Row: r, Version: v}, v.Vals != nil || v.LSN > 0
	}
	last, begun := "", false // the key of the last row the scan met
	// meetGone gives fn, in key order, the rows fn deleted that the scan
	// would have met after last and before key (end: to the range's end);
	// false when fn stopped.
	meetGone := func(key string, end bool) bool {
		var due []*storage.Row
		kept := gone[:0]
		for _, r := range gone {
			switch {
			case begun && r.Key <= last:
			case !end && r.Key >= key:
				kept = append(kept, r)
			case lo != nil && types.Compare(r.PK[0], *lo) < 0, hi != nil && types.Compare(r.PK[0], *hi) > 0:
			default:
				due = append(due, r)
			}
		}
		gone = kept
		slices.SortFunc(due, func(a, b *storage.Row) int { return strings.Compare(a.Key, b.Key) })
		for _, r := range due {
			if p := t.PendingOf(r); p == nil || p.Vals != nil {
				continue // written again since: the scan meets it
			}
			if it, ok := asBegun(r, storage.ScanItem{Row: r}); ok && !fn(it) {
				return false
			}
		}
		return true
	}
	stopped := false
	t.ScanEach(x.ID, snap, lo, hi, func(it storage.ScanItem) bool {
		if len(x.undo) != noted {
			note()
		}
		if len(gone) > 0 && !meetGone(it.Row.Key, false) {
			stopped = true
			return false
		}
		last, begun = it.Row.Key, true
		if before != nil {
			var ok bool
			if it, ok = asBegun(it.Row, it); !ok {
				return true
			}
		}
		if !fn(it) {
			stopped = true
			return false
		}
		return true
	})
	if !stopped {
		note()
		if len(gone) > 0 {
			meetGone("", true)
		}
	}
}

// NoteRead records that the transaction's result depends on lsn.
func (x *Txn) NoteRead(lsn uint64) {
	if lsn > x.readLSN {
		x.readLSN = lsn
	}
}

// CommitLSN is the LSN of the transaction's commit record (0 before a
// commit, or for a read-only transaction).
func (x *Txn) CommitLSN() uint64 { return x.commitLSN }

// ReadLSN is the highest LSN this transaction has read.
func (x *Txn) ReadLSN() uint64 { return x.readLSN }

// Write makes vals (nil = delete) the pending state of r. The caller holds
// r's row lock.
func (x *Txn) Write(t *storage.Table, r *storage.Row, vals []types.Value) {
	r, prev := t.SetPending(r, &storage.Pending{Owner: x.ID, Vals: vals})
	if x.touched == nil {
		x.touched = make(map[*storage.Row]*storage.Table)
	}
	_, seen := x.touched[r]
	x.undo = append(x.undo, undoRec{t: t, r: r, prev: prev, first: !seen})
	if !seen {
		x.touched[r] = t
		x.order = append(x.order, r)
		x.live.rows.Store(int32(len(x.order)))
	}
	if vals != nil && t.HasSecondary() {
		t.IndexRow(r, vals)
	}
}

// Mark returns an undo position for statement or savepoint rollback.
func (x *Txn) Mark() int { return len(x.undo) }

// RollbackTo undoes every write after mark.
func (x *Txn) RollbackTo(mark int) {
	for i := len(x.undo) - 1; i >= mark; i-- {
		u := x.undo[i]
		u.t.RestorePending(u.r, u.prev)
		if u.first {
			delete(x.touched, u.r)
		}
	}
	x.undo = x.undo[:mark]
	if len(x.touched) != len(x.order) {
		kept := x.order[:0]
		for _, r := range x.order {
			if _, ok := x.touched[r]; ok {
				kept = append(kept, r)
			}
		}
		x.order = kept
		x.live.rows.Store(int32(len(x.order)))
	}
}

// Savepoint records a named savepoint (replacing one of the same name).
func (x *Txn) Savepoint(name string) {
	x.ReleaseSavepoint(name)
	x.savepoints = append(x.savepoints, savepoint{name: name, mark: x.Mark()})
}

// RollbackToSavepoint undoes the writes after the savepoint; later
// savepoints are forgotten. false if there is no such savepoint.
func (x *Txn) RollbackToSavepoint(name string) bool {
	for i := len(x.savepoints) - 1; i >= 0; i-- {
		if equalFold(x.savepoints[i].name, name) {
			x.RollbackTo(x.savepoints[i].mark)
			x.savepoints = x.savepoints[:i+1]
			return true
		}
	}
	return false
}

// ReleaseSavepoint forgets a savepoint; false if there is none.
func (x *Txn) ReleaseSavepoint(name string) bool {
	for i := len(x.savepoints) - 1; i >= 0; i-- {
		if equalFold(x.savepoints[i].name, name) {
			x.savepoints = x.savepoints[:i]
			return true
		}
	}
	return false
}

func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		ca, cb := a[i], b[i]
		if 'A' <= ca && ca <= 'Z' {
			ca += 'a' - 'A'
		}
		if 'A' <= cb && cb <= 'Z' {
			cb += 'a' - 'A'
		}
		if ca != cb {
			return false
		}
	}
	return true
}

// HasWrites reports whether the transaction changed anything.
func (x *Txn) HasWrites() bool { return len(x.order) > 0 }

// Rollback undoes everything and releases the locks.
func (x *Txn) Rollback() {
	if x.done {
		return
	}
	x.done = true
	defer x.live.ended.Store(true)
	x.endSnapshots()
	x.RollbackTo(0)
	x.leaveTables()
	if x.hasLocks {
		x.m.Locks.ReleaseAll(lockmgr.TxnID(x.ID))
	}
	x.m.stats.rollbacks.Add(1)
}

// CommitOptions choose how a commit releases its locks.
type CommitOptions struct {
	// EarlyRelease hands the row locks on as soon as the commit record has
	// an LSN (ELR, or a procedure's async commit). Otherwise the commit
	// waits until it is durable and releases after.
	EarlyRelease bool
}

// Commit runs the commit protocol and returns the ack LSN: the caller may
// acknowledge its client once that LSN is durable. With EarlyRelease the
// commit has not been waited for; otherwise it is durable on return.
func (x *Txn) Commit(ctx context.Context, opts CommitOptions) (ackLSN uint64, err error) {
	if x.done {
		return x.readLSN, nil
	}
	x.done = true
	defer x.live.ended.Store(true)
	if len(x.order) == 0 {
		x.endSnapshots()
		x.leaveTables()
		if x.hasLocks {
			x.m.Locks.ReleaseAll(lockmgr.TxnID(x.ID))
		}
		return x.readLSN, nil
	}
	x.endSnapshots()
	if x.durableRows() == 0 {
		// Only temporary tables changed: their rows become committed
		// without a log record (nothing of them is durable, and only
		// their session reads them, so LSN 0 is visible to it at once).
		x.install(0, x.m.vis.horizon())
		if x.hasLocks {
			x.m.Locks.ReleaseAll(lockmgr.TxnID(x.ID))
		}
		x.m.stats.commits.Add(1)
		return x.readLSN, nil
	}
	m := x.m
	bufp := getRedoBuffer()
	payload, rows := x.encodeRedo(*bufp, m.apply != nil)
	defer putRedoBuffer(bufp, payload)
	size := len(payload)
	m.latch.RLock()
	// A large transaction's redo goes out in chunks first (invariant 7),
	// so commits of others interleave with it instead of queueing behind
	// one huge write. Chunks and commit record are appended under one
	// latch hold, so a checkpoint never falls between them.
	kind, err := wal.KindCommit, error(nil)
	if split := m.largeTxnSplit(len(payload)); split > 0 {
		var first uint64
		if first, err = x.appendChunks(ctx, payload, split); err == nil {
			kind = wal.KindChunkedCommit
			payload = binary.AppendUvarint(binary.AppendUvarint(nil, x.ID), first)
		}
	}
	var lsn uint64
	if err == nil {
		m.vis.mu.Lock()
		lsn, err = m.Pipe.Append(kind, payload)
		if err == nil {
			m.vis.registerLocked(lsn)
			if m.apply != nil {
				m.apply.enqueue(applyItem{lsn: lsn, rows: rows, size: size})
			}
		}
		m.vis.mu.Unlock()
	}
	if err != nil {
		m.latch.RUnlock()
		x.RollbackTo(0)
		x.leaveTables()
		m.Locks.ReleaseAll(lockmgr.TxnID(x.ID))
		// The record never got an LSN, so this transaction certainly did
		// not commit, whatever happened to earlier ones.
		return 0, fmt.Errorf("%w: %w", ErrNotCommitted, err)
	}
	x.commitLSN = lsn
	x.install(lsn, m.vis.horizon())
	m.vis.installed(lsn)
	m.latch.RUnlock()
	// Installed: a schema change waiting at the gate now finds these
	// versions in the table it copies, below its own LSN.
	x.leaveTables()
	m.stats.commits.Add(1)
	if opts.EarlyRelease {
		m.Locks.ReleaseEarly(lockmgr.TxnID(x.ID), lsn)
	} else {
		err = x.waitDurable(ctx, lsn)
		m.Locks.ReleaseAll(lockmgr.TxnID(x.ID))
		if err != nil {
			return lsn, err
		}
	}
	if x.readLSN > lsn {
		return x.readLSN, nil
	}
	return lsn, nil
}

// waitDurable waits for the commit's own sync, saying so in the state
// sink while it does.
func (x *Txn) waitDurable(ctx context.Context, lsn uint64) error {
	if x.state == nil || x.m.Pipe.DurableLSN() >= lsn {
		return x.m.WaitDurable(ctx, lsn)
	}
	prev := x.state.Swap(&StateLogSync)
	defer x.state.Store(prev)
	return x.m.WaitDurable(ctx, lsn)
}

// install makes the transaction's pending writes the committed versions at
// lsn, one table at a time under that table's lock, so a reader's scan of a
// table never sees part of a transaction (a torn transfer in a SUM).
func (x *Txn) install(lsn, horizon uint64) {
	var tables []*storage.Table
	var rows [][]*storage.Row
	for _, r := range x.order {
		t := x.touched[r]
		i := 0
		for i < len(tables) && tables[i] != t {
			i++
		}
		if i == len(tables) {
			tables = append(tables, t)
			rows = append(rows, nil)
		}
		rows[i] = append(rows[i], r)
	}
	for i, t := range tables {
		t.InstallAll(rows[i], x.ID, lsn, horizon)
	}
}

// appendChunks appends payload as KindChunk records of at most split bytes,
// each tagged with the transaction's id, and returns the first one's LSN.
// It waits for each chunk to reach the log before appending the next, so
// commits of other transactions that arrive meanwhile get LSNs between the
// chunks and are written and acknowledged without waiting for the rest.
// (Transaction ids restart with the process; the commit record names its
// first chunk's LSN too, so recovery never mixes in an older lifetime's
// orphan chunks.)
func (x *Txn) appendChunks(ctx context.Context, payload []byte, split int) (first uint64, err error) {
	for off := 0; off < len(payload); off += split {
		end := min(off+split, len(payload))
		chunk := binary.AppendUvarint(make([]byte, 0, end-off+10), x.ID)
		chunk = append(chunk, payload[off:end]...)
		lsn, err := x.m.Pipe.Append(wal.KindChunk, chunk)
		if err != nil {
			return 0, err
		}
		if first == 0 {
			first = lsn
		}
		x.m.stats.chunks.Add(1)
		if end < len(payload) {
			if err := x.m.Pipe.WaitDurable(ctx, lsn); err != nil {
				return 0, err
			}
		}
	}
	x.m.stats.largeTxns.Add(1)
	return first, nil
}

// ELR reports whether enable_early_lock_release is on.
func (m *Manager) ELREnabled() bool { return m.ELR() }
