package storage

import (
	"github.com/plrun/plrun/storage/kv"
	"github.com/plrun/plrun/types"
)

// rlockStoredEntries lists, in index order, the entries of secondary
// index idx in the store whose rows are not resident, for values starting
// with eq (in index column order) whose next column is within [lo, hi]
// (nil: unbounded; inclusive). Each comes with its transient row, read
// from the store. It returns with mu held for reading (the caller adds
// the resident side and releases it): the list is the store's for the
// rows that are not resident under that hold, as if it had been read
// under it.
//
// The store is read with no table lock held, then checked under the read
// lock: if no row left memory (t.unloaded) since before the reads, a row
// not resident now was not resident at any time in between, and the store
// changes a row and its index entries only while it is resident (see
// scanCursor.next), so the entries and the row the reads saw for it are
// its current ones; the entries of rows resident now are dropped (memory
// lists theirs), whenever they became resident. A row resident during the
// reads and evicted before the check moved the counter: the reads are
// tried again, and after lockFreeTries they are done under the lock.
func (t *Table) rlockStoredEntries(idx int, eq []types.Value, lo, hi *types.Value) []IndexEntry {
	held := false // mu is held for reading
	done := false
	defer func() {
		if held && !done { // a panic (*StoreError): release the lock
			t.mu.RUnlock()
		}
	}()
	t.mu.RLock()
	held = true
	if t.store == nil || t.unfilled || t.Def.Indexes[idx].Primary {
		done = true
		return nil // (the primary key has no entries in the store)
	}
	q := storedIndexRead{t: t, store: t.store, dataID: t.dataID, idx: idx}
	q.bounds(eq, lo, hi)
	for try := 0; try < lockFreeTries; try++ {
		gone := t.unloaded.Load()
		t.mu.RUnlock()
		held = false
		pks := q.keys()
		if len(pks) > 0 {
			// drop the rows resident now before fetching (only to spare
			// reads: the check below decides)
			t.mu.RLock()
			held = true
			if t.unloaded.Load() != gone {
				continue
			}
			pks = t.notResidentLocked(pks)
			t.mu.RUnlock()
			held = false
		}
		got := q.fetch(pks)
		t.mu.RLock()
		held = true
		if t.unloaded.Load() == gone {
			out := t.keepStoredLocked(idx, got)
			done = true
			return out
		}
	}
	// rows keep leaving memory: read under the lock
	out := t.keepStoredLocked(idx, q.fetch(t.notResidentLocked(q.keys())))
	done = true
	return out
}

// storedIndexRead is one read of a secondary index's entries in the
// store. Its methods touch nothing mu guards.
type storedIndexRead struct {
	t            *Table
	store        *kv.Store
	dataID       uint64
	idx          int
	base         []byte // the index's key prefix
	lower, upper []byte
}

func (q *storedIndexRead) bounds(eq []types.Value, lo, hi *types.Value) {
	q.base = kv.IndexPrefix(nil, q.dataID, q.idx)
	p := append([]byte(nil), q.base...)
	for _, v := range eq {
		p = types.AppendKey(p, v)
	}
	q.lower, q.upper = p, kv.PrefixEnd(p)
	if lo != nil {
		q.lower = types.AppendKey(append([]byte(nil), p...), *lo)
	}
	if hi != nil {
		q.upper = kv.PrefixEnd(types.AppendKey(append([]byte(nil), p...), *hi))
	}
}

// keys lists the primary keys of the entries in range, in index order.
func (q *storedIndexRead) keys() []string {
	ix := &q.t.Def.Indexes[q.idx]
	it, err := q.store.NewIter(q.lower, q.upper)
	if err != nil {
		panic(&StoreError{Err: err})
	}
	defer it.Close()
	var out []string
	for ok := it.First(); ok; ok = it.Next() {
		k := it.Key()[len(q.base):]
		off := 0
		for range ix.Cols {
			n, err := types.SkipKey(k[off:])
			if err != nil {
				panic(&StoreError{Err: err})
			}
			off += n
		}
		out = append(out, string(k[off:]))
	}
	if err := it.Error(); err != nil {
		panic(&StoreError{Err: err})
	}
	return out
}

// storedIndexRow is an entry's row as the store holds it (found false:
// none; err: a failure to read or decode it, reported only if the row is
// not resident, as a locked read would never have read it).
type storedIndexRow struct {
	key   string
	vals  []types.Value
	lsn   uint64
	found bool
	err   error
}

// fetch reads the rows of pks from the store.
func (q *storedIndexRead) fetch(pks []string) []storedIndexRow {
	out := make([]storedIndexRow, len(pks))
	var kb []byte
	for i, pk := range pks {
		r := &out[i]
		r.key = pk
		kb = kv.RowKey(kb[:0], q.dataID, pk)
		b, ok, err := q.store.Get(kb)
		if err != nil {
			r.err = err
			continue
		}
		if !ok {
			continue
		}
		r.found = true
		r.lsn, r.vals, r.err = decodeStored(b)
	}
	return out
}

// notResidentLocked keeps the keys of pks that are not resident. The
// caller holds mu.
func (t *Table) notResidentLocked(pks []string) []string {
	kept := pks[:0]
	for _, pk := range pks {
		if t.rows[pk] == nil {
			kept = append(kept, pk)
		}
	}
	return kept
}

// keepStoredLocked is the entries of got's rows that are not resident (a
// resident row's entries are in memory) and exist in the store. The
// caller holds mu.
func (t *Table) keepStoredLocked(idx int, got []storedIndexRow) []IndexEntry {
	cols := t.Def.Indexes[idx].Cols
	var out []IndexEntry
	for _, r := range got {
		if t.rows[r.key] != nil {
			continue // resident: its entries are in memory
		}
		if r.err != nil {
			panic(&StoreError{Err: r.err})
		}
		if !r.found {
			continue
		}
		out = append(out, IndexEntry{Vals: project(cols, r.vals), Row: t.storedRow(r.key, r.vals, r.lsn)})
	}
	return out
}

// probePrefix is the part of an exact lookup's column values the store
// can seek by: up to the first part with a prefix length (the rest is
// checked by the caller, which compares the key of the version it reads).
func probePrefix(ix *IndexDef, cols []types.Value) []types.Value {
	for j := range cols {
		if ix.PrefixAt(j) > 0 {
			return cols[:j]
		}
	}
	return cols
}

// mergeEntries merges two lists in index order (ordLess).
func mergeEntries(a, b []IndexEntry) []IndexEntry {
	if len(b) == 0 {
		return a
	}
	if len(a) == 0 {
		return b
	}
	out := make([]IndexEntry, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if ordLess(ordEntry{b[j].Vals, b[j].Row}, ordEntry{a[i].Vals, a[i].Row}) {
			out = append(out, b[j])
			j++
		} else {
			out = append(out, a[i])
			i++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}
