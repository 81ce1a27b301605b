package storage

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/tidwall/btree"

	"github.com/plrun/plrun/types"
)

// TxnID identifies the transaction that owns a pending write.
type TxnID = uint64

// Pending is an uncommitted write. Vals nil means the row is deleted.
type Pending struct {
	Owner TxnID
	Vals  []types.Value
}

// Row is one primary-key slot. Its fields are guarded by its Table's mu.
type Row struct {
	Key       string
	PK        []types.Value
	hidden    uint64 // hidden row id for tables without a primary key
	committed []types.Value
	lsn       uint64
	older     *version // earlier committed versions, newest first, for snapshot reads
	pending   *Pending
	inTree    bool
	// transient: read from the store and not resident (backing.go), or
	// evicted since; fwd, when set, is the resident row for its key that
	// replaced it.
	transient bool
	fwd       *Row
	// ref is the eviction clock's second chance: set when the row is
	// written or made resident, cleared by the evictor's first pass.
	ref     bool
	indexed [][]string        // per secondary index, the keys r is listed under
	sorted  [][][]types.Value // per secondary index, the values r is listed under in its ordered side (ordered.go)
}

// res follows r to the resident row that replaced it, if any. The caller
// holds the table's mu.
func (r *Row) res() *Row {
	for r.fwd != nil {
		r = r.fwd
	}
	return r
}

// version is an earlier committed state of a row, kept while a statement's
// snapshot may still need it.
type version struct {
	vals []types.Value // nil: absent
	lsn  uint64
	prev *version
}

// Newest is the snapshot that sees every installed commit: writers'
// "current read" under a row lock.
const Newest = ^uint64(0)

// Table is a table's schema and its rows. The rows (tableData) may be
// shared by two Table values one after the other: RENAME TABLE installs a
// new Table with the new name over the same rows and marks the old one
// dropped, so a statement still holding the old one fails its next write
// (ErrDropped is the txn layer's cue to re-plan) instead of writing under
// a name that no longer exists.
type Table struct {
	Def *TableDef
	*tableData
	dropped bool // guarded by mu
	// rebuiltAt is the LSN of the ALTER TABLE that rebuilt the table with
	// new row keys (0: none, or its rows kept their older versions): a
	// snapshot below it cannot read the table. Set before the table is
	// published, never changed after.
	rebuiltAt uint64
}

// RebuiltAt is the LSN below which no snapshot can read the table (0: any
// can).
func (t *Table) RebuiltAt() uint64 { return t.rebuiltAt }

// tableData is a table's rows, indexes and counters.
type tableData struct {
	mu        sync.RWMutex
	rows      map[string]*Row
	order     *btree.BTreeG[*Row]
	secondary []map[string][]*Row       // per Def.Indexes entry: key -> rows; nil for the primary key
	ordered   []*btree.BTreeG[ordEntry] // per Def.Indexes entry: (values, row) in order; nil for the primary key
	autoInc   uint64                    // next AUTO_INCREMENT value to hand out - 1
	// ddlAutoInc is autoInc as a schema change (or a restore) set it.
	ddlAutoInc uint64
	hidden     uint64
	bulk       bool // a table being built by Rebuild from rows in key order
	// streamed: built by a streamed rebuild (rebuild_stream.go) and not
	// filled yet: streamedRows rows were copied straight into the store
	// under its key space, the others are resident (and win); the
	// applier's fill writes the resident ones over the store (FillStore).
	// Until then no row is evicted and no tombstone purged. Guarded by mu.
	streamed     bool
	streamedRows int64
	backing
	// updated is when a commit last changed the table, in Unix seconds
	// (information_schema.TABLES.UPDATE_TIME); as in InnoDB it is not
	// kept across a restart.
	updated atomic.Int64
}

// NewTable builds an empty table for def.
func NewTable(def *TableDef) *Table {
	t := &Table{Def: def, tableData: &tableData{rows: make(map[string]*Row)}}
	pk := def.PrimaryKey()
	t.order = btree.NewBTreeGOptions(func(a, b *Row) bool {
		if pk == nil {
			return a.hidden < b.hidden
		}
		// A range scan's probe holds a prefix of the key: it sorts before
		// every row that starts with it.
		n := min(len(a.PK), len(b.PK))
		for i := 0; i < n; i++ {
			if c := types.Compare(a.PK[i], b.PK[i]); c != 0 {
				return c < 0
			}
		}
		return len(a.PK) < len(b.PK)
	}, btree.Options{NoLocks: true})
	t.ordered = newOrdered(def)
	t.secondary = make([]map[string][]*Row, len(def.Indexes))
	for i, ix := range def.Indexes {
		if !ix.Primary {
			t.secondary[i] = make(map[string][]*Row)
		}
	}
	return t
}

// KeyOf encodes primary-key values (already coerced to their column types)
// as an order-preserving key (types.AppendKey): keys sort as the rows do.
func KeyOf(pk []types.Value) string {
	var buf [64]byte
	b := buf[:0]
	for _, v := range pk {
		b = types.AppendKey(b, v)
	}
	return string(b)
}

// Lookup returns the row slot for key, or nil. A row of a backed table
// that is not resident comes back transient (backing.go).
func (t *Table) Lookup(key string) *Row {
	t.mu.RLock()
	r := t.rows[key]
	if r == nil && t.store != nil {
		if vals, lsn, ok := t.fetchLocked(key); ok {
			r = t.storedRow(key, vals, lsn)
		}
	}
	t.mu.RUnlock()
	return r
}

// Slot returns the row slot for key, creating an empty one (not visible to
// anyone until a write sets it) if needed.
func (t *Table) Slot(key string, pk []types.Value) *Row {
	if t.store == nil {
		t.mu.Lock()
		defer t.mu.Unlock()
		return t.slotLocked(key, pk)
	}
	// A backed table reads the store under the read lock, so readers and
	// other writers go on meanwhile; what it read still holds under the
	// write lock if no row left the table's memory in between (only a row
	// that was resident and left it, evicted or purged, can have changed
	// the stored state of a key that is not resident).
	t.mu.RLock()
	if r := t.rows[key]; r != nil {
		t.mu.RUnlock()
		return r
	}
	vals, lsn, found := t.fetchLocked(key)
	gone := t.unloaded.Load()
	t.mu.RUnlock()
	t.mu.Lock()
	defer t.mu.Unlock()
	if r := t.rows[key]; r != nil || t.unloaded.Load() != gone {
		return t.slotLocked(key, pk)
	}
	r := &Row{Key: key, PK: pk}
	if found {
		t.residentLocked(r, vals, lsn)
		return r
	}
	t.rows[key] = r
	return r
}

func (t *Table) slotLocked(key string, pk []types.Value) *Row {
	if r := t.rows[key]; r != nil {
		return r
	}
	r := &Row{Key: key, PK: pk}
	if vals, lsn, ok := t.fetchLocked(key); ok {
		t.residentLocked(r, vals, lsn)
		return r
	}
	t.rows[key] = r
	return r
}

// NewHiddenSlot creates a slot for a table without a primary key.
func (t *Table) NewHiddenSlot() *Row {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.hidden++
	id := t.hidden
	pk := []types.Value{types.UintValue(id)}
	r := &Row{Key: KeyOf(pk), PK: pk, hidden: id}
	t.rows[r.Key] = r
	return r
}

// ForgetIfEmpty drops a slot that holds nothing (a refused insert's). The
// caller holds the slot's row lock, so nobody else is about to fill it.
func (t *Table) ForgetIfEmpty(r *Row) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if r = r.res(); !r.transient {
		t.placeLocked(r)
	}
}

// Version is what a reader sees of a row.
type Version struct {
	Vals []types.Value // nil: absent
	LSN  uint64        // commit LSN of a committed version; 0 for the reader's own pending write
	Own  bool          // the reader's own uncommitted write
}

// Read returns the version of r that txn sees at snapshot snap: its own
// pending write, else the newest committed version whose LSN is at most
// snap (Newest: the newest committed version).
func (t *Table) Read(r *Row, txn TxnID, snap uint64) Version {
	t.mu.RLock()
	r = r.res()
	if !r.transient || snap != Newest {
		defer t.mu.RUnlock()
		return readLocked(r, txn, snap)
	}
	t.mu.RUnlock()
	// A current read of a transient row: the newest state is the resident
	// row's, or the store's now.
	t.mu.Lock()
	defer t.mu.Unlock()
	return readLocked(t.resolveLocked(r), txn, snap)
}

func readLocked(r *Row, txn TxnID, snap uint64) Version {
	if p := r.pending; p != nil && p.Owner == txn && txn != 0 {
		return Version{Vals: p.Vals, Own: true}
	}
	if r.lsn <= snap {
		return Version{Vals: r.committed, LSN: r.lsn}
	}
	for v := r.older; v != nil; v = v.prev {
		if v.lsn <= snap {
			return Version{Vals: v.vals, LSN: v.lsn}
		}
	}
	return Version{}
}

// SetPending makes p the row's pending write and returns the previous one
// (for undo). The caller holds r's row lock. r may be transient: the
// write goes to the resident row for its key, which is returned (the
// caller keeps that one in its write set).
func (t *Table) SetPending(r *Row, p *Pending) (row *Row, prev *Pending) {
	t.mu.Lock()
	defer t.mu.Unlock()
	r = t.resolveLocked(r)
	if r.transient { // absent everywhere: r becomes the key's slot
		r.transient = false
		t.rows[r.Key] = r
	}
	prev = r.pending
	r.pending = p
	r.ref = true
	t.placeLocked(r)
	return r, prev
}

// RestorePending is undo: it puts back a previous pending state and drops
// the slot if nothing is left in it.
func (t *Table) RestorePending(r *Row, prev *Pending) {
	t.mu.Lock()
	defer t.mu.Unlock()
	r = r.res()
	r.pending = prev
	t.reindexLocked(r)
	t.placeLocked(r)
}

// placeLocked keeps the B-tree and map membership in step with whether the
// slot holds anything.
func (t *Table) placeLocked(r *Row) {
	empty := r.pending == nil && r.committed == nil && r.lsn == 0 && r.older == nil
	if empty {
		if r.inTree {
			t.order.Delete(r)
			r.inTree = false
		}
		if t.rows[r.Key] == r {
			delete(t.rows, r.Key)
			t.unloaded.Add(1)
		}
		return
	}
	if !r.inTree {
		if t.bulk {
			t.order.Load(r) // rows arrive in key order (Rebuild): appended, else set
		} else {
			t.order.Set(r)
		}
		r.inTree = true
	}
	if t.rows[r.Key] != r {
		t.rows[r.Key] = r
	}
}

// InstallAll turns txn's pending writes on rows into committed versions at
// lsn, under one lock. The versions they replace are kept for snapshots
// older than lsn, down to the newest one at or below horizon (the oldest
// snapshot any reader holds or can still take).
func (t *Table) InstallAll(rows []*Row, txn TxnID, lsn, horizon uint64) {
	t.updated.Store(time.Now().Unix())
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, r := range rows {
		if r.pending == nil || r.pending.Owner != txn {
			continue
		}
		t.countLocked(r.committed, r.pending.Vals)
		if r.committed != nil || r.lsn != 0 {
			r.older = &version{vals: r.committed, lsn: r.lsn, prev: r.older}
		}
		r.committed = r.pending.Vals
		r.lsn = lsn
		r.pending = nil
		trimLocked(r, horizon)
		t.reindexLocked(r)
		t.placeLocked(r)
	}
}

// trimLocked drops versions no snapshot at or above horizon can see.
func trimLocked(r *Row, horizon uint64) {
	if r.lsn <= horizon {
		r.older = nil
		return
	}
	for v := r.older; v != nil; v = v.prev {
		if v.lsn <= horizon {
			v.prev = nil
			return
		}
	}
}

// Apply sets the committed version directly (recovery replay).
func (t *Table) Apply(key string, pk []types.Value, vals []types.Value, lsn uint64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	r := t.slotLocked(key, pk)
	t.countLocked(r.committed, vals)
	if t.Def.PrimaryKey() == nil && len(pk) == 1 && r.hidden == 0 {
		r.hidden = pk[0].Uint()
		if r.hidden > t.hidden {
			t.hidden = r.hidden
		}
	}
	r.committed = vals
	r.lsn = lsn
	r.older = nil
	if vals == nil && t.store == nil {
		r.lsn = 0
	}
	// (A backed table keeps the tombstone: the store may still hold the
	// row until the applier applies this record, and memory must win;
	// Purge or eviction drops it once the store has the deletion.)
	if vals != nil {
		t.indexLocked(r, vals)
	}
	t.reindexLocked(r)
	t.placeLocked(r)
}

// ScanItem is one row a scan returns.
type ScanItem struct {
	Row *Row
	Version
}

// Scan returns, in primary-key order, every row txn sees at snapshot snap,
// and the deletions it sees (Vals nil, LSN > 0) so the caller can wait for
// their durability too. Every row is read at the one snapshot; rows are
// copied out so the caller holds no lock.
func (t *Table) Scan(txn TxnID, snap uint64) []ScanItem {
	return t.ScanRange(txn, snap, nil, nil)
}

// ScanRange is Scan limited to the rows whose first primary-key column is
// within [lo, hi] (nil: unbounded), in key order. Bounds are ignored for
// a table without a primary key. ScanEach is the same without holding
// every item at once.
func (t *Table) ScanRange(txn TxnID, snap uint64, lo, hi *types.Value) []ScanItem {
	var out []ScanItem
	t.ScanEach(txn, snap, lo, hi, func(it ScanItem) bool {
		out = append(out, it)
		return true
	})
	return out
}

// Updated is when a commit last changed the table (Unix seconds), 0 if
// none has since the table was opened.
func (t *Table) Updated() int64 { return t.updated.Load() }

// Len returns the number of slots (approximate row count).
func (t *Table) Len() int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	if t.store != nil {
		return int(max(t.count, int64(len(t.rows))))
	}
	return len(t.rows)
}

// NextAutoInc hands out the next AUTO_INCREMENT value.
func (t *Table) NextAutoInc() uint64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.autoInc++
	return t.autoInc
}

// SeenAutoInc raises the counter past an explicitly inserted value.
func (t *Table) SeenAutoInc(v uint64) {
	t.mu.Lock()
	if v > t.autoInc {
		t.autoInc = v
	}
	t.mu.Unlock()
}

// AutoInc returns the last value handed out.
func (t *Table) AutoInc() uint64 {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.autoInc
}

// SetAutoInc sets the counter (snapshot restore, AUTO_INCREMENT= option).
func (t *Table) SetAutoInc(v uint64) {
	t.mu.Lock()
	t.autoInc = v
	t.ddlAutoInc = v
	t.mu.Unlock()
}

// DDLAutoInc is the counter as schema changes last set it: what the
// catalog header keeps (values handed out since are recovered from the
// rows, as replay recovers them).
func (t *Table) DDLAutoInc() uint64 {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.ddlAutoInc
}

// MarkDropped flags the table; commits into it are then ignored.
func (t *Table) MarkDropped() {
	t.mu.Lock()
	t.dropped = true
	t.mu.Unlock()
}

// Dropped reports whether the table was dropped.
func (t *Table) Dropped() bool {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.dropped
}

// Purge drops tombstones whose deletion is durable (checkpoint). A
// pinned table (a rebuild's source: its catch-up reads deletions from the
// tombstones) and a streamed table not filled yet (its tombstones hide
// rows the store still holds) keep theirs.
func (t *Table) Purge(durable uint64) {
	if t.pinned.Load() > 0 {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.streamed {
		return
	}
	for _, r := range t.rows {
		if r.lsn <= durable {
			trimLocked(r, durable)
			t.reindexLocked(r)
		}
		if r.committed == nil && r.pending == nil && r.lsn <= durable && r.older == nil {
			r.lsn = 0
			t.placeLocked(r)
		}
	}
}
