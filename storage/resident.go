package storage

import (
	"github.com/plrun/plrun/storage/kv"
	"github.com/plrun/plrun/types"
)

// residentLocked makes r (not in the map) the resident row for its key
// with the stored version vals at lsn.
func (t *Table) residentLocked(r *Row, vals []types.Value, lsn uint64) {
	r.committed, r.lsn, r.older, r.pending = vals, lsn, nil, nil
	r.transient, r.ref = false, true
	if t.Def.PrimaryKey() == nil && r.hidden == 0 && len(r.PK) == 1 {
		r.hidden = r.PK[0].Uint()
	}
	t.rows[r.Key] = r
	if vals != nil {
		t.indexLocked(r, vals)
	}
	t.placeLocked(r)
}

// resolveLocked returns the resident row for transient r's key, making it
// resident from the store if it is not; a key absent everywhere leaves r
// transient and empty. The caller holds mu for writing.
func (t *Table) resolveLocked(r *Row) *Row {
	r = r.res()
	if !r.transient {
		return r
	}
	if m := t.rows[r.Key]; m != nil {
		r.fwd = m
		return m
	}
	vals, lsn, ok := t.fetchLocked(r.Key)
	if !ok {
		r.committed, r.lsn, r.older, r.pending = nil, 0, nil, nil
		return r
	}
	t.residentLocked(r, vals, lsn)
	return r
}

// countLocked follows a committed row's change from old to vals in the
// row count of a backed table.
func (t *Table) countLocked(old, vals []types.Value) {
	if t.store == nil {
		return
	}
	switch {
	case old == nil && vals != nil:
		t.count++
	case old != nil && vals == nil:
		t.count--
	}
}

// recountLocked counts a table whose rows are all resident (a rebuild's).
func (t *Table) recountLocked() {
	n := int64(0)
	for _, r := range t.rows {
		if r.committed != nil {
			n++
		}
	}
	t.count = n
}

// SetStoredCount sets the row count read from the store at open.
func (t *Table) SetStoredCount(n int64) {
	t.mu.Lock()
	t.count = n
	t.mu.Unlock()
}

// Pin keeps every resident row of t resident until Unpin, and with load
// makes every stored row resident first: a rebuild reads the whole table
// from memory.
func (t *Table) Pin(load bool) {
	t.pinned.Add(1)
	if !load || t.store == nil {
		return
	}
	t.mu.RLock()
	unfilled := t.unfilled
	t.mu.RUnlock()
	if unfilled {
		return
	}
	p := kv.RowPrefix(nil, t.dataID)
	start := p
	end := kv.PrefixEnd(p)
	for start != nil {
		start = t.loadChunk(p, start, end)
	}
}

// loadChunk makes up to a chunk of stored rows from start on resident and
// returns where to go on (nil: done).
func (t *Table) loadChunk(prefix, start, end []byte) []byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	it, err := t.store.NewIter(start, end)
	if err != nil {
		panic(&StoreError{Err: err})
	}
	defer it.Close()
	n := 0
	for ok := it.First(); ok; ok = it.Next() {
		if n == scanChunk {
			return append([]byte(nil), it.Key()...)
		}
		n++
		key := string(it.Key()[len(prefix):])
		if t.rows[key] != nil {
			continue
		}
		lsn, vals, err := decodeStored(it.Value())
		if err != nil {
			panic(&StoreError{Err: err})
		}
		t.residentLocked(t.storedRow(key, vals, lsn), vals, lsn)
	}
	if err := it.Error(); err != nil {
		panic(&StoreError{Err: err})
	}
	return nil
}

// Unpin ends a Pin.
func (t *Table) Unpin() { t.pinned.Add(-1) }

// ResidentBytes is the estimated memory of t's resident rows.
func (t *Table) ResidentBytes() int64 {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return int64(len(t.rows)) * t.rowCost
}

// Evictions is how many rows were evicted from t.
func (t *Table) Evictions() uint64 { return t.evictions.Load() }

// Evict drops up to n clean rows of a backed table from memory and
// returns how many it dropped. A row is clean when it has no pending
// write, its committed version is applied to the store (lsn <= applied)
// and no snapshot can need an older one (lsn <= horizon: the older
// versions it kept are dropped first). Rows
// written or loaded since the last pass get a second chance (ref). An
// evicted Row becomes transient: whoever still holds it reads its last
// state, and a write resolves it again.
func (t *Table) Evict(n int, applied, horizon uint64) int {
	if t.store == nil || t.pinned.Load() > 0 {
		return 0
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.unfilled || t.streamed || t.dropped {
		return 0
	}
	done, seen := 0, 0
	for k, r := range t.rows {
		if done >= n || seen >= 4*n {
			break
		}
		seen++
		if r.pending != nil || r.lsn > applied || r.lsn > horizon {
			continue
		}
		if r.older != nil {
			// no snapshot at or above the horizon reads them any more
			trimLocked(r, horizon)
			t.reindexLocked(r)
		}
		if r.ref {
			r.ref = false
			continue
		}
		t.evictLocked(k, r)
		done++
	}
	t.evictions.Add(uint64(done))
	return done
}

func (t *Table) evictLocked(k string, r *Row) {
	for i, keys := range r.indexed {
		for _, ik := range keys {
			t.unlistLocked(i, ik, r)
		}
	}
	for i, list := range r.sorted {
		for _, p := range list {
			t.ordered[i].Delete(ordEntry{p, r})
		}
	}
	r.indexed, r.sorted = nil, nil
	if r.inTree {
		t.order.Delete(r)
		r.inTree = false
	}
	delete(t.rows, k)
	t.unloaded.Add(1)
	r.transient = true
}
