package storage

import "github.com/plrun/plrun/types"

// IndexKey encodes the values of secondary index idx (UNIQUE or plain)
// taken from a full row. ok is false when any of them is NULL (NULLs never
// collide in MySQL and are not indexed).
func (t *Table) IndexKey(idx int, vals []types.Value) (key string, ok bool) {
	var b []byte
	ix := &t.Def.Indexes[idx]
	cut := ix.UniquePrefix()
	for j, c := range ix.Cols {
		if vals[c].IsNull() {
			return "", false
		}
		v := vals[c]
		if cut {
			v = ix.KeyPart(j, v) // UNIQUE (a(2)): unique by the first two characters
		}
		b = types.KeyString(b, v)
	}
	return string(b), true
}

// IndexCandidates returns the rows that may hold key in secondary index
// idx: every row one of whose versions (pending, committed, or kept for a
// snapshot) has it, and in a backed table the stored rows whose entries
// start like cols (the index columns' values key was made from; rows not
// resident come back transient). The caller checks the version it reads.
func (t *Table) IndexCandidates(idx int, key string, cols []types.Value) []*Row {
	stored := t.rlockStoredEntries(idx, probePrefix(&t.Def.Indexes[idx], cols), nil, nil)
	defer t.mu.RUnlock()
	rs := append([]*Row(nil), t.secondary[idx][key]...)
	for _, e := range stored {
		rs = append(rs, e.Row)
	}
	return rs
}

// IndexColumns is the values of index idx's columns in a full row.
func (t *Table) IndexColumns(idx int, vals []types.Value) []types.Value {
	return project(t.Def.Indexes[idx].Cols, vals)
}

// IndexRow records r under every secondary index for vals (a new pending
// version).
func (t *Table) IndexRow(r *Row, vals []types.Value) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.indexLocked(r.res(), vals)
}

func (t *Table) indexLocked(r *Row, vals []types.Value) {
	t.orderLocked(r, vals)
	for i, m := range t.secondary {
		if m == nil {
			continue
		}
		k, ok := t.IndexKey(i, vals)
		if !ok || r.indexedUnder(i, k) {
			continue
		}
		m[k] = append(m[k], r)
		if r.indexed == nil {
			r.indexed = make([][]string, len(t.secondary))
		}
		r.indexed[i] = append(r.indexed[i], k)
	}
}

func (r *Row) indexedUnder(i int, k string) bool {
	if r.indexed == nil {
		return false
	}
	for _, x := range r.indexed[i] {
		if x == k {
			return true
		}
	}
	return false
}

// reindexLocked drops r from the index entries that none of its versions
// holds any more (after an install trimmed old versions, a rollback, or a
// purge), so entries never outlive the values they point at.
func (t *Table) reindexLocked(r *Row) {
	if r.indexed == nil && r.sorted == nil {
		return
	}
	var versions [][]types.Value
	if r.pending != nil && r.pending.Vals != nil {
		versions = append(versions, r.pending.Vals)
	}
	if r.committed != nil {
		versions = append(versions, r.committed)
	}
	for v := r.older; v != nil; v = v.prev {
		if v.vals != nil {
			versions = append(versions, v.vals)
		}
	}
	t.reorderLocked(r, versions)
	for i, keys := range r.indexed {
		kept := keys[:0]
		for _, k := range keys {
			held := false
			for _, vals := range versions {
				if vk, ok := t.IndexKey(i, vals); ok && vk == k {
					held = true
					break
				}
			}
			if held {
				kept = append(kept, k)
			} else {
				t.unlistLocked(i, k, r)
			}
		}
		r.indexed[i] = kept
	}
}

func (t *Table) unlistLocked(i int, k string, r *Row) {
	rs := t.secondary[i][k]
	for j, x := range rs {
		if x == r {
			rs[j] = rs[len(rs)-1]
			rs = rs[:len(rs)-1]
			break
		}
	}
	if len(rs) == 0 {
		delete(t.secondary[i], k)
	} else {
		t.secondary[i][k] = rs
	}
}

// HasSecondary reports whether the table has secondary indexes to maintain.
func (t *Table) HasSecondary() bool {
	for _, m := range t.secondary {
		if m != nil {
			return true
		}
	}
	return false
}

// ValuesOf returns the row's values as txn sees them (helper for unique checks).
func (t *Table) ValuesOf(r *Row, txn TxnID) []types.Value {
	return t.Read(r, txn, Newest).Vals
}

// Committed returns the committed values and LSN (snapshots, tests).
func (t *Table) Committed(r *Row) ([]types.Value, uint64) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	r = r.res()
	return r.committed, r.lsn
}

// PendingOf returns the row's pending write, if any.
func (t *Table) PendingOf(r *Row) *Pending {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return r.res().pending
}

// PendingFresh is PendingOf, and whether the row has no committed
// version before its pending write (none, or deleted): the store then
// holds no row for its key once the commits before are applied, which
// lets the applier write a new row without reading the store
// (ApplyKeyToStore).
func (t *Table) PendingFresh(r *Row) (*Pending, bool) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	r = r.res()
	return r.pending, r.committed == nil
}

// RowCount returns how many rows have a committed, non-deleted version.
func (t *Table) RowCount() int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	if t.store != nil {
		return int(t.count)
	}
	n := 0
	for _, r := range t.rows {
		if r.committed != nil {
			n++
		}
	}
	return n
}

// SnapRow is a committed row as a snapshot holds it.
type SnapRow struct{ PK, Vals []types.Value }

// CommittedRows returns every row as of snapshot snap, in key order
// (checkpoints).
func (t *Table) CommittedRows(snap uint64) []SnapRow {
	var out []SnapRow
	t.ScanEach(0, snap, nil, nil, func(it ScanItem) bool {
		if it.Vals != nil {
			out = append(out, SnapRow{PK: it.Row.PK, Vals: it.Vals})
		}
		return true
	})
	return out
}

// IndexSize returns how many distinct keys secondary index idx holds (its
// cardinality, counting keys still held by versions kept for snapshots).
//
// For a backed table whose rows are not all resident it is an estimate:
// the row count (as if every key were distinct).
func (t *Table) IndexSize(idx int) int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	if t.store != nil && int64(len(t.rows)) < t.count {
		return int(t.count)
	}
	return len(t.secondary[idx])
}
