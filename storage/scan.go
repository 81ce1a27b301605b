package storage

import (
	"bytes"

	"github.com/plrun/plrun/storage/kv"
	"github.com/plrun/plrun/types"
)

// scanChunk is how many rows a scan of a backed table reads per hold of
// the table's lock.
const scanChunk = 256

// ScanEach calls fn, in primary-key order, for every row txn sees at
// snapshot snap whose first primary-key column is within [lo, hi] (nil:
// unbounded; ignored for a table without a primary key), and for the
// deletions it sees (Vals nil, LSN > 0), until fn returns false. fn runs
// without the table's lock held. A backed table is read chunk by chunk,
// resident rows merged with the store's (resident ones win), so a long
// scan holds no more than a chunk; each chunk reads the same snapshot.
func (t *Table) ScanEach(txn TxnID, snap uint64, lo, hi *types.Value, fn func(ScanItem) bool) {
	if t.Def.PrimaryKey() == nil {
		lo, hi = nil, nil
	}
	if t.store == nil {
		for _, it := range t.scanMemory(txn, snap, lo, hi) {
			if !fn(it) {
				return
			}
		}
		return
	}
	c := scanCursor{t: t, txn: txn, snap: snap, prefix: kv.RowPrefix(nil, t.dataID)}
	if lo != nil {
		c.start = types.AppendKey(nil, *lo)
		c.pivot = &Row{PK: []types.Value{*lo}}
	}
	if hi != nil {
		c.end = kv.PrefixEnd(types.AppendKey(nil, *hi))
	}
	for {
		items, more := c.next()
		for _, it := range items {
			if !fn(it) {
				return
			}
		}
		if !more {
			return
		}
	}
}

// scanMemory is the scan of a table without a store: one pass under one
// lock hold.
func (t *Table) scanMemory(txn TxnID, snap uint64, lo, hi *types.Value) []ScanItem {
	t.mu.RLock()
	defer t.mu.RUnlock()
	var out []ScanItem
	if lo == nil && hi == nil {
		out = make([]ScanItem, 0, t.order.Len())
	}
	visit := func(r *Row) bool {
		if hi != nil && types.Compare(r.PK[0], *hi) > 0 {
			return false
		}
		v := readLocked(r, txn, snap)
		if v.Vals != nil || (!v.Own && v.LSN > 0) {
			out = append(out, ScanItem{Row: r, Version: v})
		}
		return true
	}
	if lo == nil {
		t.order.Scan(visit)
	} else {
		t.order.Ascend(&Row{PK: []types.Value{*lo}}, visit)
	}
	return out
}

// scanCursor walks a backed table's key range chunk by chunk.
type scanCursor struct {
	t      *Table
	txn    TxnID
	snap   uint64
	prefix []byte
	start  []byte // first key (encoded primary key) to read; nil: the first
	end    []byte // keys must be below it; nil: no bound
	after  []byte // the last key returned (resume strictly after it)
	// pivot is a probe that sorts at or before the first row to read in
	// the resident tree's order (nil: from the first)
	pivot *Row
	begun bool
}

func (c *scanCursor) inRange(k []byte) bool {
	if c.begun && bytes.Compare(k, c.after) <= 0 {
		return false
	}
	if !c.begun && c.start != nil && bytes.Compare(k, c.start) < 0 {
		return false
	}
	return c.end == nil || bytes.Compare(k, c.end) < 0
}

// next reads one chunk: the resident rows and the stored ones of the
// next stretch of keys, merged. more is false at the end of the range.
func (c *scanCursor) next() (items []ScanItem, more bool) {
	t := c.t
	t.mu.RLock()
	defer t.mu.RUnlock()
	// resident rows, in key order, from where the last chunk ended
	var mem []*Row
	visit := func(r *Row) bool {
		k := []byte(r.Key)
		if c.end != nil && bytes.Compare(k, c.end) >= 0 {
			return false
		}
		if c.inRange(k) {
			mem = append(mem, r)
		}
		return len(mem) < scanChunk
	}
	if c.pivot != nil {
		t.order.Ascend(c.pivot, visit)
	} else {
		t.order.Scan(visit)
	}
	memFull := len(mem) == scanChunk
	// stored rows of the same stretch that are not resident
	lower := append(append([]byte(nil), c.prefix...), c.start...)
	if c.begun {
		lower = append(append(append([]byte(nil), c.prefix...), c.after...), 0)
	}
	upper := kv.PrefixEnd(c.prefix)
	if c.end != nil {
		upper = append(append([]byte(nil), c.prefix...), c.end...)
	}
	if t.unfilled {
		// nothing of the table is in the store yet (what its key space
		// holds is an interrupted attempt's, dropped by its fill)
		upper = lower
	}
	it, err := t.store.NewIter(lower, upper)
	if err != nil {
		panic(&StoreError{err})
	}
	type stored struct {
		key  string
		vals []types.Value
		lsn  uint64
	}
	var disk []stored
	var diskLast []byte
	visited := 0
	for ok := it.First(); ok && visited < scanChunk; ok = it.Next() {
		visited++
		k := it.Key()[len(c.prefix):]
		diskLast = append(diskLast[:0], k...)
		if t.rows[string(k)] != nil {
			continue // resident: memory has it (in this chunk or a later one)
		}
		lsn, vals, err := decodeStored(it.Value())
		if err != nil {
			it.Close()
			panic(&StoreError{err})
		}
		disk = append(disk, stored{string(k), vals, lsn})
	}
	if err := it.Error(); err != nil {
		it.Close()
		panic(&StoreError{err})
	}
	it.Close()
	diskFull := visited == scanChunk
	// Both lists are complete up to bound: the smaller of their last keys
	// where a list stopped at its chunk size.
	var bound []byte
	if memFull {
		bound = []byte(mem[len(mem)-1].Key)
	}
	if diskFull && (bound == nil || bytes.Compare(diskLast, bound) < 0) {
		bound = diskLast
	}
	within := func(k string) bool { return bound == nil || bytes.Compare([]byte(k), bound) <= 0 }
	i, j := 0, 0
	for {
		var r *Row
		var v Version
		switch {
		case i < len(mem) && within(mem[i].Key) && (j >= len(disk) || !within(disk[j].key) || mem[i].Key < disk[j].key):
			r = mem[i]
			i++
			v = readLocked(r, c.txn, c.snap)
			if !(v.Vals != nil || (!v.Own && v.LSN > 0)) {
				continue
			}
		case j < len(disk) && within(disk[j].key):
			d := disk[j]
			j++
			r = t.storedRow(d.key, d.vals, d.lsn)
			v = Version{Vals: d.vals, LSN: d.lsn}
		default:
			if bound == nil {
				return items, false
			}
			c.after, c.begun = bound, true
			var at *Row
			switch {
			case memFull && string(bound) == mem[len(mem)-1].Key:
				at = mem[len(mem)-1]
			case t.rows[string(bound)] != nil:
				at = t.rows[string(bound)]
			default:
				d := disk[len(disk)-1]
				at = t.storedRow(d.key, d.vals, d.lsn)
			}
			c.pivot = &Row{PK: at.PK, hidden: at.hidden}
			return items, true
		}
		items = append(items, ScanItem{Row: r, Version: v})
	}
}
