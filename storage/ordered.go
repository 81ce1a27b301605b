package storage

import (
	"github.com/tidwall/btree"

	"github.com/plrun/plrun/types"
)

// The ordered side of each secondary index: a B-tree of (index column
// values, row) for every version of every row, NULLs included (they sort
// first), so a lookup by a prefix of the index's columns, with a range on
// the next one, finds every row that may match. It is kept beside the
// hash of whole keys (index.go) by the same calls: indexLocked adds,
// reindexLocked drops what no version holds any more. Like the hash, it
// hands out candidates: the caller reads the version it sees and checks it.
type ordEntry struct {
	vals []types.Value // the index's columns; a probe may hold a prefix
	row  *Row          // nil in a probe: before every row of its prefix
}

func ordLess(a, b ordEntry) bool {
	n := min(len(a.vals), len(b.vals))
	for i := 0; i < n; i++ {
		if c := types.Compare(a.vals[i], b.vals[i]); c != 0 {
			return c < 0
		}
	}
	if len(a.vals) != len(b.vals) {
		return len(a.vals) < len(b.vals)
	}
	if a.row == nil || b.row == nil {
		return a.row == nil && b.row != nil
	}
	return rowLess(a.row, b.row)
}

// rowLess orders rows by primary key (or hidden id): a total order, so
// the entries of equal values stay apart.
func rowLess(a, b *Row) bool {
	if a.PK == nil || b.PK == nil {
		return a.hidden < b.hidden
	}
	for i := range a.PK {
		if c := types.Compare(a.PK[i], b.PK[i]); c != 0 {
			return c < 0
		}
	}
	return false
}

func newOrdered(def *TableDef) []*btree.BTreeG[ordEntry] {
	out := make([]*btree.BTreeG[ordEntry], len(def.Indexes))
	for i, ix := range def.Indexes {
		if !ix.Primary {
			out[i] = btree.NewBTreeGOptions(ordLess, btree.Options{NoLocks: true})
		}
	}
	return out
}

func project(cols []int, vals []types.Value) []types.Value {
	out := make([]types.Value, len(cols))
	for i, c := range cols {
		out[i] = vals[c]
	}
	return out
}

func sameVals(a, b []types.Value) bool {
	for i := range a {
		if types.Compare(a[i], b[i]) != 0 || a[i].IsNull() != b[i].IsNull() {
			return false
		}
	}
	return true
}

// orderLocked lists r under vals' values in every ordered index.
func (t *Table) orderLocked(r *Row, vals []types.Value) {
	for i, tr := range t.ordered {
		if tr == nil {
			continue
		}
		p := project(t.Def.Indexes[i].Cols, vals)
		if r.sorted != nil {
			dup := false
			for _, q := range r.sorted[i] {
				if sameVals(p, q) {
					dup = true
					break
				}
			}
			if dup {
				continue
			}
		} else {
			r.sorted = make([][][]types.Value, len(t.ordered))
		}
		tr.Set(ordEntry{p, r})
		r.sorted[i] = append(r.sorted[i], p)
	}
}

// reorderLocked drops r's ordered entries that none of versions holds.
func (t *Table) reorderLocked(r *Row, versions [][]types.Value) {
	if r.sorted == nil {
		return
	}
	for i, list := range r.sorted {
		kept := list[:0]
		for _, p := range list {
			held := false
			for _, vals := range versions {
				if sameVals(p, project(t.Def.Indexes[i].Cols, vals)) {
					held = true
					break
				}
			}
			if held {
				kept = append(kept, p)
			} else {
				t.ordered[i].Delete(ordEntry{p, r})
			}
		}
		r.sorted[i] = kept
	}
}

// IndexRange returns the rows that may hold, in secondary index idx,
// values starting with eq whose next column is within [lo, hi] (nil:
// unbounded; both inclusive, the caller's filter decides the ends), in
// index order. A row is listed once however many of its versions match.
func (t *Table) IndexRange(idx int, eq []types.Value, lo, hi *types.Value) []*Row {
	var out []*Row
	seen := map[*Row]bool{}
	for _, e := range t.IndexEntries(idx, eq, lo, hi) {
		if !seen[e.Row] {
			seen[e.Row] = true
			out = append(out, e.Row)
		}
	}
	return out
}

// IndexEntry is one (values, row) of an index's ordered side: one of the
// row's versions has those values.
type IndexEntry struct {
	Vals []types.Value
	Row  *Row
}

// IndexEntries is IndexRange's entries in index order, a row once per
// distinct values its versions have there: a reader in index order keeps
// a row where the version it reads has the entry's values.
func (t *Table) IndexEntries(idx int, eq []types.Value, lo, hi *types.Value) []IndexEntry {
	stored := t.rlockStoredEntries(idx, eq, lo, hi)
	defer t.mu.RUnlock()
	tr := t.ordered[idx]
	if tr == nil {
		return nil
	}
	probe := append([]types.Value(nil), eq...)
	if lo != nil {
		probe = append(probe, *lo)
	}
	var out []IndexEntry
	tr.Ascend(ordEntry{vals: probe}, func(e ordEntry) bool {
		for i, v := range eq {
			if types.Compare(e.vals[i], v) != 0 {
				return false
			}
		}
		if hi != nil && len(e.vals) > len(eq) && types.Compare(e.vals[len(eq)], *hi) > 0 {
			return false
		}
		out = append(out, IndexEntry{e.vals, e.row})
		return true
	})
	return mergeEntries(out, stored)
}
