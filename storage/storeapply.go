package storage

import (
	"fmt"
	"testing"

	"github.com/plrun/plrun/storage/kv"
	"github.com/plrun/plrun/types"
)

// indexEntryKey is the store key of secondary index idx's entry for a row
// with values vals and encoded primary key pk.
func (t *Table) indexEntryKey(dst []byte, idx int, vals []types.Value, pk string) []byte {
	dst = kv.IndexPrefix(dst, t.dataID, idx)
	for _, c := range t.Def.Indexes[idx].Cols {
		dst = types.AppendKey(dst, vals[c])
	}
	return append(dst, pk...)
}

// ApplyToStore writes one committed row change (vals nil: a delete) of
// the record at lsn into b: the row and its index entries, replacing what
// the store held for the key. It returns the change in the row count.
// Only the applier calls it, in LSN order.
func (t *Table) ApplyToStore(b *kv.Batch, pk, vals []types.Value, lsn uint64) (int64, error) {
	return t.ApplyKeyToStore(b, KeyOf(pk), vals, lsn, false, nil)
}

// ApplyBuf is scratch space one applier reuses across ApplyKeyToStore
// calls (the batch copies what it is given).
type ApplyBuf struct{ row, val, old, idx []byte }

// ApplyKeyToStore is ApplyToStore for the row with encoded key key. fresh
// says the store holds no row for the key (PendingFresh: the row had no
// committed version before this change, and every change before it is
// applied), so nothing is read: a new row's key and index entries are
// written blind. buf may be nil.
func (t *Table) ApplyKeyToStore(b *kv.Batch, key string, vals []types.Value, lsn uint64, fresh bool, buf *ApplyBuf) (int64, error) {
	if buf == nil {
		buf = &ApplyBuf{}
	}
	buf.row = kv.RowKey(buf.row[:0], t.dataID, key)
	rk := buf.row
	var old []types.Value
	found := false
	if !fresh || verifyFresh {
		prev, ok, err := b.Get(rk)
		if err != nil {
			return 0, err
		}
		if ok && fresh {
			return 0, fmt.Errorf("storage: %s.%s: a row written as new is in the store already (key %x)", t.Def.DB, t.Def.Name, key)
		}
		if found = ok; found {
			if _, old, err = decodeStored(prev); err != nil {
				return 0, err
			}
		}
	}
	for i, ix := range t.Def.Indexes {
		if ix.Primary {
			continue
		}
		var ok, nk []byte
		if old != nil {
			buf.old = t.indexEntryKey(buf.old[:0], i, old, key)
			ok = buf.old
		}
		if vals != nil {
			buf.idx = t.indexEntryKey(buf.idx[:0], i, vals, key)
			nk = buf.idx
		}
		if ok != nil && string(ok) == string(nk) {
			continue
		}
		if ok != nil {
			if err := b.Delete(ok); err != nil {
				return 0, err
			}
		}
		if nk != nil {
			if err := b.Set(nk, nil); err != nil {
				return 0, err
			}
		}
	}
	if vals == nil {
		if !found {
			return 0, nil
		}
		return -1, b.Delete(rk)
	}
	buf.val = encodeStored(buf.val[:0], lsn, vals)
	if err := b.Set(rk, buf.val); err != nil {
		return 0, err
	}
	if found {
		return 0, nil
	}
	return 1, nil
}

// verifyFresh makes test binaries check every blind write of a new row
// against the store (a wrong "fresh" would leave the old row's index
// entries behind).
var verifyFresh = testing.Testing()

// FillStore writes every row of an unfilled table as of snapshot snap
// into the store (after dropping whatever an earlier, interrupted attempt
// left under its key space), committing a full batch as it goes through
// next. It returns the number of rows written; Filled ends the table's
// unfilled state once the batch holding the last of them is committed.
// A streamed table's stored rows are kept: its resident rows are written
// over them (fillOverStream).
func (t *Table) FillStore(b *kv.Batch, snap uint64, next func(*kv.Batch) (*kv.Batch, error)) (*kv.Batch, int64, error) {
	t.mu.RLock()
	streamed, stored := t.streamed, t.streamedRows
	t.mu.RUnlock()
	if streamed {
		return t.fillOverStream(b, snap, stored, next)
	}
	if err := b.DropData(t.dataID); err != nil {
		return b, 0, err
	}
	var n int64
	auto := t.DDLAutoInc()
	b, err := t.walkResidentAt(b, snap, next, func(b *kv.Batch, it ScanItem) error {
		if it.Vals == nil {
			return nil
		}
		key := it.Row.Key
		if err := b.Set(kv.RowKey(nil, t.dataID, key), encodeStored(nil, it.LSN, it.Vals)); err != nil {
			return err
		}
		auto = max(auto, t.NoteAutoInc(it.Vals))
		for i, ix := range t.Def.Indexes {
			if !ix.Primary {
				if err := b.Set(t.indexEntryKey(nil, i, it.Vals, key), nil); err != nil {
					return err
				}
			}
		}
		n++
		return nil
	})
	if err != nil {
		return b, n, err
	}
	if err := b.SetCount(t.dataID, n); err != nil {
		return b, n, err
	}
	// The AUTO_INCREMENT mark too, as the applier keeps it for the rows it
	// applies: the highest value the rows hold, or the counter a schema
	// change set (values handed out to inserts that failed are not kept,
	// as replay does not keep them). An upgrade raises it to the counter
	// the old format recovered (engine).
	return b, n, b.RaiseAutoInc(t.dataID, auto)
}

// fillBatchBytes is where a fill commits a batch and starts another.
const fillBatchBytes = 16 << 20

// fillOverStream is FillStore for a streamed table, whose store holds the
// stored rows the rebuild copied (stored of them): each resident row's
// version at snap replaces the store's for its key (a row absent at snap,
// such as a tombstone for a row deleted after it was copied, is deleted
// there), index entries following, and the row count is the copied rows
// plus what the resident ones changed.
func (t *Table) fillOverStream(b *kv.Batch, snap uint64, stored int64, next func(*kv.Batch) (*kv.Batch, error)) (*kv.Batch, int64, error) {
	n := stored
	auto := t.DDLAutoInc()
	b, err := t.walkResidentAt(b, snap, next, func(b *kv.Batch, it ScanItem) error {
		d, err := t.ApplyKeyToStore(b, it.Row.Key, it.Vals, it.LSN, false, nil)
		n += d
		auto = max(auto, t.NoteAutoInc(it.Vals))
		return err
	})
	if err != nil {
		return b, n, err
	}
	if err := b.SetCount(t.dataID, n); err != nil {
		return b, n, err
	}
	return b, n, b.RaiseAutoInc(t.dataID, auto) // (as FillStore's)
}

// Filled marks an unfilled table's rows as being in the store: from now
// on rows may be evicted and keys not resident are read there.
func (t *Table) Filled() {
	t.mu.Lock()
	t.unfilled, t.streamed = false, false
	t.mu.Unlock()
}

// Unfilled reports whether the store does not hold the table's rows yet:
// none of them, or (streamed) not the resident ones.
func (t *Table) Unfilled() bool {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.store != nil && (t.unfilled || t.streamed)
}

// NoteAutoInc is the AUTO_INCREMENT value a stored row holds, if any.
func (t *Table) NoteAutoInc(vals []types.Value) uint64 {
	if ai := t.Def.AutoIncColumn(); ai >= 0 && vals != nil && ai < len(vals) {
		if n, ok := vals[ai].ToInt64(); ok && n > 0 {
			return uint64(n)
		}
	}
	return 0
}

// walkResidentAt calls fn for every resident row of t with its version at
// snap, a chunk at a time under the read lock (fn runs without it), and
// hands a batch past fillBatchBytes to next between chunks; fn writes to
// the batch it is given (the current one).
func (t *Table) walkResidentAt(b *kv.Batch, snap uint64, next func(*kv.Batch) (*kv.Batch, error), fn func(*kv.Batch, ScanItem) error) (*kv.Batch, error) {
	var after *Row
	for {
		chunk := make([]ScanItem, 0, scanChunk)
		t.mu.RLock()
		visit := func(r *Row) bool {
			if r == after {
				return true
			}
			after = r
			chunk = append(chunk, ScanItem{Row: r, Version: readLocked(r, 0, snap)})
			return len(chunk) < scanChunk
		}
		if after == nil {
			t.order.Scan(visit)
		} else {
			t.order.Ascend(after, visit)
		}
		t.mu.RUnlock()
		for _, it := range chunk {
			if err := fn(b, it); err != nil {
				return b, err
			}
		}
		if len(chunk) < scanChunk {
			return b, nil
		}
		if b.Len() > fillBatchBytes {
			var err error
			if b, err = next(b); err != nil {
				return b, err
			}
		}
	}
}
