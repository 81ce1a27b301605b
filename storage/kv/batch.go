package kv

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/cockroachdb/pebble/v2"
)

// Batch is a set of writes committed atomically with the applied LSN of
// the last log record they belong to. It reads its own writes (Get).
type Batch struct {
	s  *Store
	b  *pebble.Batch
	kb []byte
	// done: committed or closed. pebble recycles its batches, so closing
	// one twice could release another goroutine's batch (a rebuild's copy
	// writes beside the applier).
	done bool
}

// NewBatch starts a batch.
func (s *Store) NewBatch() *Batch { return &Batch{s: s, b: s.db.NewIndexedBatch()} }

// Get reads key through the batch's own writes.
func (b *Batch) Get(key []byte) (val []byte, ok bool, err error) {
	v, closer, err := b.b.Get(key)
	if errors.Is(err, pebble.ErrNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("reading the table store: %w", err)
	}
	val = append([]byte(nil), v...)
	closer.Close()
	return val, true, nil
}

// Set writes key = val.
func (b *Batch) Set(key, val []byte) error { return b.b.Set(key, val, nil) }

// Delete removes key.
func (b *Batch) Delete(key []byte) error { return b.b.Delete(key, nil) }

// DropData removes every row, index entry and counter of dataID (a
// dropped, truncated or rebuilt table's old data).
func (b *Batch) DropData(dataID uint64) error {
	for _, kind := range []byte{prefixRow, prefixIndex} {
		p := dataPrefix(kind, dataID)
		if err := b.b.DeleteRange(p, PrefixEnd(p), nil); err != nil {
			return err
		}
	}
	if err := b.b.Delete(metaKey("count", dataID), nil); err != nil {
		return err
	}
	return b.b.Delete(metaKey("autoinc", dataID), nil)
}

// SetCount stores dataID's row count.
func (b *Batch) SetCount(dataID uint64, n int64) error {
	return b.b.Set(metaKey("count", dataID), binary.AppendUvarint(nil, uint64(max(n, 0))), nil)
}

// SetAutoInc stores dataID's AUTO_INCREMENT high-water mark.
func (b *Batch) SetAutoInc(dataID, v uint64) error {
	return b.b.Set(metaKey("autoinc", dataID), binary.AppendUvarint(nil, v), nil)
}

// SetCatalog stores the catalog header as of this batch's LSN.
func (b *Batch) SetCatalog(header []byte) error { return b.b.Set(keyCatalog, header, nil) }

// SetFormat marks the store with this binary's format.
func (b *Batch) SetFormat() error {
	return b.b.Set(keyFormat, binary.AppendUvarint(nil, Format), nil)
}

// Len is the batch's size in bytes.
func (b *Batch) Len() int { return b.b.Len() }

// Empty reports whether nothing was written.
func (b *Batch) Empty() bool { return b.b.Empty() }

// Commit commits the batch as the state after log record applied (no
// sync: durability comes from Flush, the log covers the rest).
func (b *Batch) Commit(applied uint64) error {
	if err := b.b.Set(keyApplied, binary.AppendUvarint(nil, applied), nil); err != nil {
		return err
	}
	if err := b.b.Commit(pebble.NoSync); err != nil {
		return fmt.Errorf("writing the table store: %w", err)
	}
	b.Close()
	if applied > b.s.applied.Load() {
		b.s.applied.Store(applied)
	}
	return nil
}

// Close discards an uncommitted batch.
func (b *Batch) Close() {
	if !b.done {
		b.done = true
		b.b.Close()
	}
}

// AddCount adds delta to dataID's stored row count.
func (b *Batch) AddCount(dataID uint64, delta int64) error {
	n, err := b.uint(metaKey("count", dataID))
	if err != nil {
		return err
	}
	return b.SetCount(dataID, int64(n)+delta)
}

// RaiseAutoInc raises dataID's stored AUTO_INCREMENT mark to v.
func (b *Batch) RaiseAutoInc(dataID, v uint64) error {
	n, err := b.uint(metaKey("autoinc", dataID))
	if err != nil || n >= v {
		return err
	}
	return b.SetAutoInc(dataID, v)
}

func (b *Batch) uint(key []byte) (uint64, error) {
	v, ok, err := b.Get(key)
	if err != nil || !ok {
		return 0, err
	}
	n, k := binary.Uvarint(v)
	if k <= 0 {
		return 0, fmt.Errorf("table store: malformed value at %q", key)
	}
	return n, nil
}
