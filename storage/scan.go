package storage

import (
	"bytes"

	"github.com/plrun/plrun/storage/kv"
	"github.com/plrun/plrun/types"
)

// scanChunk is how many rows a scan of a backed table reads per chunk
// (one hold of the table's read lock for its resident rows and the merge).
const scanChunk = 256

// lockFreeTries is how many times a chunk's (or a stored-index read's)
// store reads run with no table lock held before they are done under the
// read lock: each try that rows left memory meanwhile is thrown away.
const lockFreeTries = 2

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
	t.mu.RLock()
	store, dataID := t.store, t.dataID // (SetStore attaches under mu)
	t.mu.RUnlock()
	if store == nil {
		for _, it := range t.scanMemory(txn, snap, lo, hi) {
			if !fn(it) {
				return
			}
		}
		return
	}
	c := scanCursor{t: t, store: store, txn: txn, snap: snap, prefix: kv.RowPrefix(nil, dataID)}
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
	store  *kv.Store // t's store when the scan began
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

// storedChunk is what one read of the store found for a chunk: the first
// rows (up to scanChunk) of the stretch, resident keys' included (the
// merge, under the lock, skips those: memory has them).
type storedChunk struct {
	rows []storedEntry
	last []byte // the key of the last row read
	full bool   // scanChunk rows were read: the store may hold more past last
}

// storedEntry is one row read from the store. err is a malformed value,
// reported (as a *StoreError panic) only if the key is not resident: a
// resident key's stored value is never used (a locked read skips it).
type storedEntry struct {
	key  string
	vals []types.Value
	lsn  uint64
	err  error
}

// readStored reads the store's rows in [lower, upper), up to scanChunk of
// them. It touches nothing mu guards, so it runs with or without the lock.
func (c *scanCursor) readStored(lower, upper []byte) storedChunk {
	it, err := c.store.NewIter(lower, upper)
	if err != nil {
		panic(&StoreError{Err: err})
	}
	defer it.Close()
	var out storedChunk
	for ok := it.First(); ok && len(out.rows) < scanChunk; ok = it.Next() {
		k := it.Key()[len(c.prefix):]
		e := storedEntry{key: string(k)}
		e.lsn, e.vals, e.err = decodeStored(it.Value())
		out.rows = append(out.rows, e)
	}
	if err := it.Error(); err != nil {
		panic(&StoreError{Err: err})
	}
	if n := len(out.rows); n > 0 {
		out.last = []byte(out.rows[n-1].key)
		out.full = n == scanChunk
	}
	return out
}

// next reads one chunk: the resident rows and the stored ones of the
// next stretch of keys, merged. more is false at the end of the range.
//
// The store is read with no table lock held, and the resident rows are
// merged with what it returned under the read lock afterwards, if no row
// left the table's memory (t.unloaded) since before the store read;
// otherwise the read is tried again, and after lockFreeTries it is done
// under the lock (as Slot does for one key). Why that is enough: the store
// changes a key's row and index entries only while the key is resident
// (the applier writes committed versions, and a row is evicted only once
// its newest version is applied, and a tombstone purged only once its
// deletion is), and a key stops being resident only through
// evictLocked or placeLocked, which bump unloaded under the write lock. So
// if the counter did not move, a key not resident under the merge's lock
// was not resident at any time since the counter was read, and its stored
// state is the one the store read saw: the merge takes it from there as
// the locked read would. A key resident under the merge's lock is taken
// from memory, whatever the store read saw of it. A key resident during
// the store read and evicted before the lock is neither missed (the
// counter moved: the read is redone) nor doubled (it is taken once, from
// memory or from the store, by the same rule as under the lock). Rows
// that became resident meanwhile move no counter and need not: memory
// wins for them. The chunk's end (bound) may differ from a locked read's
// (keys the store gained or lost meanwhile are all resident ones), which
// changes only where the next chunk starts: both lists are complete for
// the keys they are taken for up to bound. t.unfilled only turns false
// (Filled, under the write lock), so a read that found it false holds.
func (c *scanCursor) next() (items []ScanItem, more bool) {
	t := c.t
	lower := append(append([]byte(nil), c.prefix...), c.start...)
	if c.begun {
		lower = append(append(append([]byte(nil), c.prefix...), c.after...), 0)
	}
	upper := kv.PrefixEnd(c.prefix)
	if c.end != nil {
		upper = append(append([]byte(nil), c.prefix...), c.end...)
	}
	locked := false
	defer func() {
		if locked {
			t.mu.RUnlock()
		}
	}()
	var disk storedChunk
	var gone uint64
	read := false
	for try := 0; ; try++ {
		t.mu.RLock()
		locked = true
		if t.unfilled {
			// nothing of the table is in the store yet (what its key
			// space holds is an interrupted attempt's, dropped by its
			// fill): nothing is read there
			disk = storedChunk{}
			break
		}
		if read && t.unloaded.Load() == gone {
			break // what the store read saw still holds
		}
		if try == lockFreeTries {
			disk = c.readStored(lower, upper) // rows keep leaving memory: under the lock
			break
		}
		gone = t.unloaded.Load()
		t.mu.RUnlock()
		locked = false
		disk = c.readStored(lower, upper)
		read = true
	}
	return c.mergeLocked(disk)
}

// mergeLocked merges the resident rows of the chunk with disk, the store's
// rows of its stretch read while nothing left memory. The caller holds mu
// for reading.
func (c *scanCursor) mergeLocked(got storedChunk) (items []ScanItem, more bool) {
	t := c.t
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
	disk := got.rows[:0:0]
	for _, d := range got.rows {
		if t.rows[d.key] != nil {
			continue // resident: memory has it (in this chunk or a later one)
		}
		if d.err != nil {
			panic(&StoreError{Err: d.err})
		}
		disk = append(disk, d)
	}
	// Both lists are complete up to bound: the smaller of their last keys
	// where a list stopped at its chunk size.
	var bound []byte
	if memFull {
		bound = []byte(mem[len(mem)-1].Key)
	}
	if got.full && (bound == nil || bytes.Compare(got.last, bound) < 0) {
		bound = got.last
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
