package storage

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/plrun/plrun/storage/kv"
	"github.com/plrun/plrun/types"
)

// A table of the catalog keeps its rows in a kv.Store (backing): memory
// holds the resident rows — every row with an uncommitted write, a
// committed version not applied to the store yet, or older versions a
// snapshot may read, plus clean rows kept while memory allows — and the
// store holds every row as of its applied LSN. The rules (doc.go):
//
//   - A row that is not resident has its newest committed version in the
//     store, at an LSN at or below every snapshot in use (eviction waits for
//     that), so any reader may read it there.
//   - A resident row wins over the store for its key.
//   - Rows read from the store without becoming resident are transient: a
//     reader may hold one for its statement; a writer's current read or
//     write makes it resident first (resolve).
//
// Temporary and transient tables (NewTable) have no store.
type backing struct {
	store  *kv.Store // nil: memory only
	dataID uint64    // the key space of these rows in the store
	// unfilled: the table was created (or rebuilt) in memory and the
	// store has none of its rows yet; the applier writes them at the
	// DDL's LSN and clears it. Guarded by mu.
	unfilled bool
	// count is the number of committed, non-deleted rows (store-backed
	// tables). Guarded by mu.
	count int64
	// pinned > 0 keeps every resident row resident (a rebuild reads the
	// whole table from memory).
	pinned atomic.Int32
	// evictions counts rows evicted (SHOW ENGINE PLRUN STATUS).
	evictions atomic.Uint64
	// unloaded counts rows that left the resident map (evicted, purged,
	// emptied), changed under mu held for writing (Slot's check).
	unloaded atomic.Uint64
	rowCost  int64 // estimated bytes of one resident row
}

// Backed reports whether the table keeps its rows in a store.
func (t *Table) Backed() bool { return t.store != nil }

// DataID is the key space of the table's rows in the store.
func (t *Table) DataID() uint64 { return t.dataID }

// attach makes t a table of store s, its rows under dataID. unfilled says
// the store has none of them yet.
func (t *Table) attach(s *kv.Store, dataID uint64, unfilled bool) {
	t.store, t.dataID, t.unfilled = s, dataID, unfilled
	t.rowCost = estimateRowCost(t.Def)
}

// estimateRowCost is a resident row's memory: the Row, its map and tree
// entries, its values and their strings, and its entries in each
// secondary index (the key map, the ordered side and the row's own list:
// about 330 bytes). Measured for sbtest1 (Go heap after GC, 200k resident
// rows): 704 bytes a row without KEY k_1 (estimate 740), 1032 with it
// (estimate 1070).
func estimateRowCost(def *TableDef) int64 {
	n := int64(240)
	for _, c := range def.Columns {
		n += 56
		if l := c.Type.Length; l > 0 && c.Type.IsString() {
			n += int64(min(l, 512))
		}
	}
	for _, ix := range def.Indexes {
		if ix.Primary {
			n += 96
		} else {
			n += 330
		}
	}
	return n
}

// encodeStored is a row's value in the store: its commit LSN and values.
func encodeStored(dst []byte, lsn uint64, vals []types.Value) []byte {
	dst = binary.AppendUvarint(dst, lsn)
	return types.AppendRow(dst, vals)
}

// decodeStored reads encodeStored's value.
func decodeStored(b []byte) (lsn uint64, vals []types.Value, err error) {
	lsn, k := binary.Uvarint(b)
	if k <= 0 {
		return 0, nil, fmt.Errorf("storage: malformed stored row")
	}
	vals, _, err = types.DecodeRow(b[k:])
	return lsn, vals, err
}

// StoreError is a failure to read the store (a read panics with it: the
// engine cannot go on reading a table it cannot read, a damaged or
// vanished file) or, Write set, to write it (a rebuild's copy returns it).
type StoreError struct {
	Err   error
	Write bool
}

func (e *StoreError) Error() string {
	msg := e.Err.Error()
	switch {
	case !e.Write:
		return "storage: reading the table store: " + msg
	case strings.HasPrefix(msg, "writing the table store"): // (kv's commit says so)
		return "storage: " + msg
	}
	return "storage: writing the table store: " + msg
}

func (e *StoreError) Unwrap() error { return e.Err }

// writeFailure is err, a failed write of the store, as a *StoreError (nil
// stays nil).
func writeFailure(err error) error {
	var se *StoreError
	if err == nil || errors.As(err, &se) {
		return err
	}
	return &StoreError{Err: err, Write: true}
}

// fetchLocked reads key's row from the store. The caller holds mu (read
// or write): no eviction or fault-in of this table runs meanwhile, so a
// key that is not resident keeps its stored state while it reads.
func (t *Table) fetchLocked(key string) (vals []types.Value, lsn uint64, found bool) {
	if t.store == nil || t.unfilled {
		return nil, 0, false
	}
	var kb [80]byte
	b, ok, err := t.store.Get(kv.RowKey(kb[:0], t.dataID, key))
	if err != nil {
		panic(&StoreError{Err: err})
	}
	if !ok {
		return nil, 0, false
	}
	lsn, vals, err = decodeStored(b)
	if err != nil {
		panic(&StoreError{Err: err})
	}
	return vals, lsn, true
}

// storedRow builds the transient Row of a stored row.
func (t *Table) storedRow(key string, vals []types.Value, lsn uint64) *Row {
	r := &Row{Key: key, committed: vals, lsn: lsn, transient: true}
	if cols := t.Def.PrimaryKey(); cols != nil {
		r.PK = make([]types.Value, len(cols))
		for i, c := range cols {
			r.PK[i] = vals[c]
		}
	} else if v, _, err := types.DecodeKey([]byte(key)); err == nil {
		r.PK = []types.Value{v}
		r.hidden = v.Uint()
	}
	return r
}

// ResidentRows is how many rows of t are in memory.
func (t *Table) ResidentRows() int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return len(t.rows)
}

// RowCost is the estimated bytes of one resident row of t.
func (t *Table) RowCost() int64 { return max(t.rowCost, 1) }
