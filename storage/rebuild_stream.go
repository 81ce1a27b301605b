package storage

import (
	"slices"

	"github.com/plrun/plrun/storage/kv"
	"github.com/plrun/plrun/types"
)

// A streamed rebuild is the Rebuild of a backed table under a reshape that
// leaves every row as it is (same key, same values, no numbering, no
// reordering: CREATE INDEX, ADD INDEX of a plain key) and adds no UNIQUE
// key, so no row can collide with another. It does not make the old
// table's stored rows resident:
//
//   - The old table is pinned without loading: its resident rows stay
//     resident (the catch-up reads the rows changed since the copy's
//     snapshot there, and the deletions from their tombstones, which Purge
//     keeps while it is pinned).
//   - Copy walks the old table's resident rows and its stored ones in key
//     order, chunk by chunk under its read lock, the resident one winning
//     for a key (as a scan does): a resident row goes into the new table's
//     memory as in the in-memory rebuild (with its older versions), a row
//     only stored goes straight into the store under the new table's key
//     space, as it is (value and commit LSN), with its entries in every
//     index of the new definition. Batches are committed without moving
//     the store's applied LSN (kv.Batch.CommitPart): until the ALTER's
//     record is applied, no header names that key space.
//   - A row deleted after its copy was stored gets a resident tombstone in
//     the new table (memory wins over the store); the new table is
//     streamed until the applier's fill writes its resident rows over the
//     store (FillStore: sets, deletes, index entries) and sets its row
//     count. Until then it evicts nothing and purges nothing.
//
// Replay runs the same code: the old table's rows are then in the store
// as of its applied LSN, with what the log replayed after it resident.

// streamBatchBytes is where the streamed copy commits a batch and starts
// another.
const streamBatchBytes = 4 << 20

// streamState is what the streamed copy learned of the rows it stored.
type streamState struct {
	stored int64  // rows written to the store
	hidden uint64 // the largest hidden row id among them (no primary key)
	ai     int    // the new table's AUTO_INCREMENT column (-1: none)
	maxAI  uint64 // the largest positive value of ai among them
	maxKey string // the key of the row holding maxAI ("": none)
}

// streamable reports whether old's rebuild for def under shape can be
// streamed.
func streamable(old *Table, def *TableDef, shape *Reshape, sameKey, identity bool) bool {
	if old.store == nil || !identity || !sameKey || shape.Number != 0 || len(shape.Order) > 0 {
		return false
	}
	old.mu.RLock()
	unfilled := old.unfilled
	old.mu.RUnlock()
	return !unfilled && !addsUnique(old.Def, def)
}

// addsUnique reports whether def has a UNIQUE key that oldDef (whose
// columns it keeps in place) does not have.
func addsUnique(oldDef, def *TableDef) bool {
	for i := range def.Indexes {
		ix := &def.Indexes[i]
		if !ix.Unique || ix.Primary {
			continue
		}
		if !slices.ContainsFunc(oldDef.Indexes, func(o IndexDef) bool {
			return o.Unique && !o.Primary && sameParts(&o, ix)
		}) {
			return true
		}
	}
	return false
}

// sameParts reports whether two keys have the same columns and prefixes.
func sameParts(a, b *IndexDef) bool {
	if !slices.Equal(a.Cols, b.Cols) {
		return false
	}
	for j := range a.Cols {
		if a.PrefixAt(j) != b.PrefixAt(j) {
			return false
		}
	}
	return true
}

// storedImage is one old row that only the store holds: its key and its
// stored value (commit LSN and values).
type storedImage struct {
	key string
	val []byte
}

// copyStreamed is Copy for a streamed rebuild. A failed write of the
// store is returned as a *StoreError (a failed read panics with one).
func (b *Rebuild) copyStreamed() error {
	old, nt := b.Old, b.New
	b.stream = streamState{ai: nt.Def.AutoIncColumn()}
	// What an earlier, interrupted attempt left under the new key space
	// goes first, before anything reads it.
	wb := old.store.NewWriteBatch()
	defer func() { wb.Close() }()
	if err := wb.DropData(nt.dataID); err != nil {
		return writeFailure(err)
	}
	if err := wb.CommitPart(); err != nil {
		return writeFailure(err)
	}
	wb = old.store.NewWriteBatch()
	c := streamCursor{prefix: kv.RowPrefix(nil, old.dataID)}
	var kb []byte
	for {
		mem, disk, more := c.next(old)
		for i := range mem {
			if err := b.load(&mem[i], 0); err != nil {
				return err
			}
		}
		for i := range disk {
			var err error
			if kb, err = b.storeRow(wb, &disk[i], kb); err != nil {
				return writeFailure(err)
			}
		}
		if !more {
			break
		}
		if wb.Len() >= streamBatchBytes {
			if err := wb.CommitPart(); err != nil {
				return writeFailure(err)
			}
			wb = old.store.NewWriteBatch()
		}
	}
	if err := wb.CommitPart(); err != nil {
		return writeFailure(err)
	}
	nt.mu.Lock()
	nt.hidden = max(nt.hidden, b.stream.hidden)
	nt.streamedRows = b.stream.stored
	nt.mu.Unlock()
	return nil
}

// storeRow writes one stored old row into wb under the new table's key
// space: the row as it is and its entries in the new table's indexes.
// kb is a scratch buffer, returned for reuse.
func (b *Rebuild) storeRow(wb *kv.Batch, d *storedImage, kb []byte) ([]byte, error) {
	nt := b.New
	_, vals, err := decodeStored(d.val)
	if err != nil {
		panic(&StoreError{Err: err})
	}
	kb = kv.RowKey(kb[:0], nt.dataID, d.key)
	if err := wb.Set(kb, d.val); err != nil {
		return kb, err
	}
	for i, ix := range nt.Def.Indexes {
		if ix.Primary {
			continue
		}
		kb = nt.indexEntryKey(kb[:0], i, vals, d.key)
		if err := wb.Set(kb, nil); err != nil {
			return kb, err
		}
	}
	st := &b.stream
	st.stored++
	if nt.Def.PrimaryKey() == nil {
		if v, _, err := types.DecodeKey([]byte(d.key)); err == nil {
			st.hidden = max(st.hidden, v.Uint())
		}
	}
	if st.ai >= 0 && st.ai < len(vals) {
		if n, ok := vals[st.ai].ToInt64(); ok && n > 0 && uint64(n) > st.maxAI {
			st.maxAI, st.maxKey = uint64(n), d.key
		}
	}
	return kb, nil
}

// streamCursor walks a backed table's rows, resident and stored, in key
// order for the streamed copy.
type streamCursor struct {
	prefix []byte // the table's row key prefix
	after  string // the last key done
	begun  bool
	// pivot sorts at the last key done in the resident tree's order (nil:
	// from the first)
	pivot *Row
}

// next reads one chunk under t's read lock: the resident rows of the
// next stretch of keys (those with a committed or older version: a
// tombstone alone hides the key, as it does from readers) and the rows
// of that stretch only the store holds. more is false at the end.
func (c *streamCursor) next(t *Table) (mem []rowImage, disk []storedImage, more bool) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	var res []*Row
	visit := func(r *Row) bool {
		if c.begun && r.Key <= c.after {
			return true
		}
		res = append(res, r)
		return len(res) < copyBatch
	}
	if c.pivot == nil {
		t.order.Scan(visit)
	} else {
		t.order.Ascend(c.pivot, visit)
	}
	memFull := len(res) == copyBatch
	lower := c.prefix
	if c.begun {
		lower = append(append(append([]byte(nil), c.prefix...), c.after...), 0)
	}
	it, err := t.store.NewIter(lower, kv.PrefixEnd(c.prefix))
	if err != nil {
		panic(&StoreError{Err: err})
	}
	visited := 0
	var last string
	for ok := it.First(); ok && visited < copyBatch; ok = it.Next() {
		visited++
		last = string(it.Key()[len(c.prefix):])
		if t.rows[last] != nil {
			continue // resident: memory has it (in this chunk or a later one)
		}
		disk = append(disk, storedImage{key: last, val: append([]byte(nil), it.Value()...)})
	}
	if err := it.Error(); err != nil {
		it.Close()
		panic(&StoreError{Err: err})
	}
	it.Close()
	diskFull := visited == copyBatch
	// Both lists are complete up to bound: the smaller of their last keys
	// where a list stopped at its chunk size.
	bound, bounded := "", false
	if memFull {
		bound, bounded = res[len(res)-1].Key, true
	}
	if diskFull && (!bounded || last < bound) {
		bound, bounded = last, true
	}
	for _, r := range res {
		if bounded && r.Key > bound {
			break
		}
		if r.committed != nil || r.older != nil {
			mem = append(mem, imageLocked(r))
		}
	}
	if !bounded {
		return mem, disk, false
	}
	for len(disk) > 0 && disk[len(disk)-1].key > bound {
		disk = disk[:len(disk)-1]
	}
	var at *Row
	switch {
	case memFull && bound == res[len(res)-1].Key:
		at = res[len(res)-1]
	case t.rows[bound] != nil:
		at = t.rows[bound]
	default: // the last stored row read
		d := disk[len(disk)-1]
		lsn, vals, err := decodeStored(d.val)
		if err != nil {
			panic(&StoreError{Err: err})
		}
		at = t.storedRow(d.key, vals, lsn)
	}
	c.pivot = &Row{PK: at.PK, hidden: at.hidden}
	c.after, c.begun = bound, true
	return mem, disk, true
}

// finishStreamedLocked sets a streamed table's row count: the rows the
// copy stored, adjusted by the resident rows (each live one counts, each
// one whose key the store holds stands for that stored row). The caller
// holds the new table's mu.
func (b *Rebuild) finishStreamedLocked() {
	nt := b.New
	n := b.stream.stored
	var kb []byte
	for k, r := range nt.rows {
		if r.committed != nil {
			n++
		}
		kb = kv.RowKey(kb[:0], nt.dataID, k)
		_, found, err := nt.store.Get(kb)
		if err != nil {
			panic(&StoreError{Err: err})
		}
		if found {
			n--
		}
	}
	nt.count = n
}

// maxValue is the largest positive integer column c of the new table
// holds. For the AUTO_INCREMENT column of a streamed table it is the
// copy's largest stored value unless a resident row replaced that row, or
// a larger resident value; otherwise a scan finds it.
func (b *Rebuild) maxValue(c int) uint64 {
	nt := b.New
	if !b.streamed || c != b.stream.ai {
		return nt.maxValue(c)
	}
	nt.mu.RLock()
	m := b.stream.maxAI
	if b.stream.maxKey != "" && nt.rows[b.stream.maxKey] != nil {
		nt.mu.RUnlock()
		return nt.maxValue(c)
	}
	for _, r := range nt.rows {
		if r.committed != nil {
			if n, ok := r.committed[c].ToInt64(); ok && n > 0 && uint64(n) > m {
				m = uint64(n)
			}
		}
	}
	nt.mu.RUnlock()
	return m
}

// dropStreamed removes what the copy stored, for a rebuild that was not
// swapped in. A failure leaves it for the next user of the key space,
// which drops it first (a fill, a streamed copy).
func (b *Rebuild) dropStreamed() {
	wb := b.New.store.NewWriteBatch()
	defer wb.Close()
	if wb.DropData(b.New.dataID) == nil {
		_ = wb.CommitPart() // (see above: the next user drops it)
	}
}
