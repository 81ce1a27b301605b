package storage

import "github.com/plrun/plrun/types"

// UniqueKey encodes the values of unique index idx taken from a full row.
// ok is false when any of them is NULL (NULLs never collide in MySQL).
func (t *Table) UniqueKey(idx int, vals []types.Value) (key string, ok bool) {
	var b []byte
	for _, c := range t.Def.Indexes[idx].Cols {
		if vals[c].IsNull() {
			return "", false
		}
		b = types.KeyString(b, vals[c])
	}
	return string(b), true
}

// UniqueCandidates returns the rows that may hold key in unique index idx.
// Entries can be stale; the caller checks each row's visible values.
func (t *Table) UniqueCandidates(idx int, key string) []*Row {
	t.mu.RLock()
	defer t.mu.RUnlock()
	rs := t.uniques[idx][key]
	return append([]*Row(nil), rs...)
}

// IndexRow records r under every unique index for vals.
func (t *Table) IndexRow(r *Row, vals []types.Value) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.indexLocked(r, vals)
}

func (t *Table) indexLocked(r *Row, vals []types.Value) {
	for i, m := range t.uniques {
		if m == nil {
			continue
		}
		k, ok := t.UniqueKey(i, vals)
		if !ok {
			continue
		}
		found := false
		live := m[k][:0]
		for _, x := range m[k] {
			if x == r {
				found = true
			}
			if x == r || x.pending != nil || x.committed != nil {
				live = append(live, x)
			}
		}
		if !found {
			live = append(live, r)
		}
		m[k] = live
	}
}

// HasUnique reports whether the table has UNIQUE secondary indexes.
func (t *Table) HasUnique() bool {
	for _, m := range t.uniques {
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
	return r.committed, r.lsn
}

// PendingOf returns the row's pending write, if any.
func (t *Table) PendingOf(r *Row) *Pending {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return r.pending
}

// RowCount returns how many rows have a committed, non-deleted version.
func (t *Table) RowCount() int {
	t.mu.RLock()
	defer t.mu.RUnlock()
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
	t.mu.RLock()
	defer t.mu.RUnlock()
	out := make([]SnapRow, 0, t.order.Len())
	t.order.Scan(func(r *Row) bool {
		if v := readLocked(r, 0, snap); v.Vals != nil {
			out = append(out, SnapRow{PK: r.PK, Vals: v.Vals})
		}
		return true
	})
	return out
}
