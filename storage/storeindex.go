package storage

import (
	"github.com/plrun/plrun/storage/kv"
	"github.com/plrun/plrun/types"
)

// storedEntriesLocked lists, in index order, the entries of secondary
// index idx in the store whose rows are not resident, for values starting
// with eq (in index column order) whose next column is within [lo, hi]
// (nil: unbounded; inclusive). Each comes with its transient row, read
// from the store. The caller holds mu (read or write), so the entries of
// rows that are not resident stay as they are while it reads.
func (t *Table) storedEntriesLocked(idx int, eq []types.Value, lo, hi *types.Value) []IndexEntry {
	if t.store == nil || t.unfilled {
		return nil
	}
	ix := &t.Def.Indexes[idx]
	base := kv.IndexPrefix(nil, t.dataID, idx)
	p := append([]byte(nil), base...)
	for _, v := range eq {
		p = types.AppendKey(p, v)
	}
	lower, upper := p, kv.PrefixEnd(p)
	if lo != nil {
		lower = types.AppendKey(append([]byte(nil), p...), *lo)
	}
	if hi != nil {
		upper = kv.PrefixEnd(types.AppendKey(append([]byte(nil), p...), *hi))
	}
	it, err := t.store.NewIter(lower, upper)
	if err != nil {
		panic(&StoreError{err})
	}
	defer it.Close()
	var out []IndexEntry
	for ok := it.First(); ok; ok = it.Next() {
		k := it.Key()[len(base):]
		off := 0
		for range ix.Cols {
			n, err := types.SkipKey(k[off:])
			if err != nil {
				panic(&StoreError{err})
			}
			off += n
		}
		pk := string(k[off:])
		if t.rows[pk] != nil {
			continue // resident: its entries are in memory
		}
		vals, lsn, found := t.fetchLocked(pk)
		if !found {
			continue
		}
		out = append(out, IndexEntry{Vals: project(ix.Cols, vals), Row: t.storedRow(pk, vals, lsn)})
	}
	if err := it.Error(); err != nil {
		panic(&StoreError{err})
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
