package storage

import (
	"sort"

	"github.com/plrun/plrun/types"
)

// Rebuild builds the table an ALTER TABLE makes, from the old table's
// committed rows, while the old table stays in use.
//
// Online protocol (the caller, txn/ddl, owns the locks):
//
//  1. Copy, with writers going on: the old table is read in batches, each
//     under a short hold of its read lock, so its writers' installs wait at
//     most for one batch. since is a snapshot taken before the copy began:
//     every commit at or below it is in the copy.
//  2. Catch up, with the old table's writers stopped (the write gate) and
//     every commit to it installed: rows committed after since are copied
//     again and rows gone from the old table are dropped. Then the new
//     table holds exactly the old one's committed state.
//
// When the primary key is unchanged (Reshape.SameKey) each row keeps its
// key, its commit LSN and its older versions (converted without
// warnings), so a reader whose snapshot predates the switch reads the new
// table as it would have read the old one, and a reader still waits for
// a version that is not yet durable (DESIGN.md invariant 4). Otherwise
// rows get new keys and only their newest version.
type Rebuild struct {
	Old, New *Table
	Shape    *Reshape
	// Report is told of every adjusted value with its row's number (1-based,
	// in the old table's key order); an error stops the rebuild.
	Report func(row int, c ConvertIssue) error

	sameKey  bool
	identity bool // rows are shared, not converted (Reshape.Identity)
	since    uint64
	rows     int // rows copied (Records: in ALTER's reply)
	// Rekeyed rows are kept aside, by old key, until Finish builds the new
	// table from them in the old table's key order (so hidden row ids are
	// given out alike at run time and at replay).
	rekeyed map[string]rekeyedRow
	owners  map[string]int // rekeyed: new primary key -> how many old rows have it
	// streamed: the old table's rows that are only stored are copied
	// store to store (rebuild_stream.go); stream holds what that copy
	// learned.
	streamed  bool
	stream    streamState
	published bool
	closed    bool
}

// NewRebuild prepares the rebuild of old into an empty table for def.
func NewRebuild(old *Table, def *TableDef, shape *Reshape, since uint64) *Rebuild {
	nt := NewTable(def)
	// Rows reordered (Reshape.Order) get new keys, as rows whose key changed.
	sameKey := shape.SameKey(old.Def, def) && len(shape.Order) == 0
	b := &Rebuild{Old: old, New: nt, Shape: shape, since: since, sameKey: sameKey, identity: shape.Identity(old.Def, def)}
	b.streamed = streamable(old, def, shape, b.sameKey, b.identity)
	if old.store != nil {
		nt.attach(old.store, def.ID, !b.streamed)
	}
	if b.streamed {
		old.Pin(false) // its resident rows stay resident until Close
		nt.streamed = true
		old.mu.RLock()
		nt.rows = make(map[string]*Row, len(old.rows))
		old.mu.RUnlock()
	} else {
		old.Pin(true) // every old row in memory until Close
		nt.rows = make(map[string]*Row, old.Len())
	}
	nt.bulk = true
	if !b.sameKey {
		b.rekeyed, b.owners = map[string]rekeyedRow{}, map[string]int{}
	}
	return b
}

// Close ends the rebuild's hold on the old table's rows (whether or not
// it was swapped in).
func (b *Rebuild) Close() {
	if !b.closed {
		b.closed = true
		b.Old.Unpin()
		if b.streamed && !b.published && !b.Old.Dropped() {
			b.dropStreamed() // not swapped in: what the copy stored is nobody's
		}
	}
}

// Rows is the number of rows the new table holds.
func (b *Rebuild) Rows() int { return b.rows }

// rowImage is one old row as the copy read it.
type rowImage struct {
	key    string
	pk     []types.Value
	hidden uint64
	vals   []types.Value // nil: deleted
	lsn    uint64
	older  []version
}

func imageLocked(r *Row) rowImage {
	im := rowImage{key: r.Key, pk: r.PK, hidden: r.hidden, vals: r.committed, lsn: r.lsn}
	for v := r.older; v != nil; v = v.prev {
		im.older = append(im.older, version{vals: v.vals, lsn: v.lsn})
	}
	return im
}

// copyBatch is how many rows the copy reads per hold of the old table's lock.
const copyBatch = 512

// Copy is step 1: every row of the old table, in key order, batch by batch.
// An error it returns is a row's conversion (Reshape.Convert, or Report's
// verdict on an issue) or, as a *StoreError, a failed write of the store
// (a streamed copy's); a failed read of the store panics with a
// *StoreError, as every store read does (NewRebuild's Pin too).
func (b *Rebuild) Copy() error {
	if b.streamed {
		return b.copyStreamed()
	}
	var last *Row
	num := 0
	for {
		batch := make([]rowImage, 0, copyBatch)
		b.Old.mu.RLock()
		visit := func(r *Row) bool {
			if r == last {
				return true
			}
			if r.committed != nil || r.older != nil {
				batch = append(batch, imageLocked(r))
			}
			last = r
			return len(batch) < copyBatch
		}
		if last == nil {
			b.Old.order.Scan(visit)
		} else {
			b.Old.order.Ascend(last, visit)
		}
		b.Old.mu.RUnlock()
		if len(batch) == 0 {
			return nil
		}
		for i := range batch {
			if batch[i].vals != nil {
				num++
			}
			if err := b.load(&batch[i], num); err != nil {
				return err
			}
		}
		if len(batch) < copyBatch {
			return nil
		}
	}
}

// CatchUp is step 2. The caller has stopped the old table's writers and
// every commit to it is installed, so one pass under its read lock sees
// its final state.
func (b *Rebuild) CatchUp() error {
	var changed []rowImage
	var nums []int
	b.Old.mu.RLock()
	num := 0
	b.Old.order.Scan(func(r *Row) bool {
		if r.committed != nil {
			num++
		}
		if r.lsn > b.since {
			changed = append(changed, imageLocked(r))
			nums = append(nums, num)
		}
		return true
	})
	b.Old.mu.RUnlock()
	for i := range changed {
		if err := b.load(&changed[i], nums[i]); err != nil {
			return err
		}
	}
	if !b.streamed {
		// (A streamed rebuild's source is pinned and keeps its tombstones,
		// Purge skips it: every deletion since the copy was loaded above.)
		b.dropGone()
	}
	return nil
}

// dropGone removes the copies of rows no longer in the old table (deleted
// after they were copied, and their tombstone purged by a checkpoint).
func (b *Rebuild) dropGone() {
	old, nt := b.Old, b.New
	live := func(k string) bool {
		r := old.rows[k]
		return r != nil && r.committed != nil
	}
	old.mu.RLock()
	var gone []string
	if b.sameKey {
		nt.mu.RLock()
		for k, r := range nt.rows {
			if r.committed != nil && !live(k) {
				gone = append(gone, k)
			}
		}
		nt.mu.RUnlock()
	} else {
		for k := range b.rekeyed {
			if !live(k) {
				gone = append(gone, k)
			}
		}
	}
	old.mu.RUnlock()
	if !b.sameKey {
		for _, k := range gone {
			b.forget(k)
		}
		return
	}
	nt.mu.Lock()
	for _, k := range gone {
		nt.clearLocked(nt.rows[k])
	}
	nt.mu.Unlock()
}

// load puts one old row's image into the new table.
func (b *Rebuild) load(im *rowImage, num int) error {
	var vals []types.Value
	if b.identity {
		vals = im.vals
	} else if im.vals != nil {
		var err error
		vals, err = b.Shape.Convert(b.Old.Def, b.New.Def, im.vals, func(c ConvertIssue) error {
			if b.Report == nil {
				return nil
			}
			return b.Report(num, c)
		})
		if err != nil {
			return err
		}
	}
	if !b.sameKey {
		b.forget(im.key)
		if vals != nil {
			rk := rekeyedRow{vals: vals, lsn: im.lsn}
			for _, k := range b.Shape.Order {
				rk.sortBy = append(rk.sortBy, im.vals[k.Col])
			}
			b.rekeyed[im.key] = rk
		}
		return nil
	}
	nt := b.New
	var older *version
	for i := len(im.older) - 1; i >= 0; i-- {
		v := im.older[i]
		if v.vals != nil && !b.identity {
			if v.vals, _ = b.Shape.Convert(b.Old.Def, b.New.Def, v.vals, nil); v.vals == nil {
				continue // a version that cannot be stored any more: snapshots that old see the row absent
			}
		}
		older = &version{vals: v.vals, lsn: v.lsn, prev: older}
	}
	nt.mu.Lock()
	defer nt.mu.Unlock()
	if vals == nil && older == nil && !b.streamed {
		if r := nt.rows[im.key]; r != nil {
			nt.clearLocked(r)
		}
		return nil
	}
	// (Streamed, a row deleted stays a tombstone: the store may hold the
	// copy of it, and memory must win until the fill deletes that.)
	// (Not slotLocked: whatever the store holds for the key, the image
	// replaces all of it.)
	r := nt.rows[im.key]
	if r == nil {
		r = &Row{Key: im.key, PK: im.pk}
	}
	if im.hidden != 0 {
		r.hidden = im.hidden
		nt.hidden = max(nt.hidden, im.hidden)
	}
	nt.setLocked(r, vals, im.lsn, older)
	return nil
}

// rekeyedRow is an old row's converted state under its new key ("" for a
// table with a hidden row id).
type rekeyedRow struct {
	key    string
	vals   []types.Value
	lsn    uint64
	sortBy []types.Value // its old values of Reshape.Order's columns
}

// forget drops old row ok's rekeyed copy.
func (b *Rebuild) forget(ok string) { delete(b.rekeyed, ok) }

// Finish completes the new table, in the old table's key order (or
// Reshape.Order's, ties in the old order): it numbers
// an added AUTO_INCREMENT column 1, 2, 3 ... (Reshape.Number), and builds
// a rekeyed table from the rows kept aside. The caller has the old
// table's writers stopped, or is recovery, so run time and replay number
// and key the rows alike.
func (b *Rebuild) Finish() {
	nt := b.New
	defer func() { nt.bulk = false }() // (under nt.mu, taken below)
	num := b.Shape.Number - 1
	n := max(b.Shape.NumberFrom, 1) - 1
	b.Old.mu.RLock()
	defer b.Old.mu.RUnlock()
	nt.mu.Lock()
	defer nt.mu.Unlock()
	if b.streamed {
		b.finishStreamedLocked()
		return
	}
	defer nt.recountLocked()
	if b.sameKey {
		if num < 0 {
			return
		}
		nt.order.Scan(func(r *Row) bool {
			if r.committed != nil {
				n++
				r.committed[num] = types.IntValue(n)
				for v := r.older; v != nil; v = v.prev {
					if v.vals != nil {
						v.vals[num] = types.IntValue(n)
					}
				}
				nt.setLocked(r, r.committed, r.lsn, r.older)
			}
			return true
		})
		return
	}
	cols := nt.Def.PrimaryKey()
	var keys []string // the old rows' keys, in the order the new rows are made
	b.Old.order.Scan(func(r *Row) bool {
		if _, ok := b.rekeyed[r.Key]; ok {
			keys = append(keys, r.Key)
		}
		return true
	})
	if order := b.Shape.Order; len(order) > 0 {
		sort.SliceStable(keys, func(i, j int) bool {
			return lessBy(order, b.rekeyed[keys[i]].sortBy, b.rekeyed[keys[j]].sortBy)
		})
	}
	for _, k := range keys {
		rk := b.rekeyed[k]
		if num >= 0 {
			n++
			rk.vals[num] = types.IntValue(n)
		}
		var row *Row
		if cols == nil {
			nt.hidden++
			pk := []types.Value{types.UintValue(nt.hidden)}
			row = nt.slotLocked(KeyOf(pk), pk)
			row.hidden = nt.hidden
		} else {
			pk := make([]types.Value, len(cols))
			for i, c := range cols {
				pk[i] = rk.vals[c]
			}
			key := KeyOf(pk)
			if b.owners[key]++; b.owners[key] > 1 {
				continue // a duplicate new key: Duplicate reports it
			}
			row = nt.slotLocked(key, pk)
		}
		nt.setLocked(row, rk.vals, rk.lsn, nil)
	}
}

// lessBy orders two rows by their values a and b of the sort keys, as
// ORDER BY does (NULLs first ascending).
func lessBy(order []SortKey, a, b []types.Value) bool {
	for i, k := range order {
		c := types.Compare(a[i], b[i])
		if k.Desc {
			c = -c
		}
		if c != 0 {
			return c < 0
		}
	}
	return false
}

// setLocked makes vals (at lsn, with older versions) r's committed state
// and lists it in the indexes.
func (t *Table) setLocked(r *Row, vals []types.Value, lsn uint64, older *version) {
	r.committed, r.lsn, r.older = vals, lsn, older
	if vals != nil {
		t.indexLocked(r, vals)
	}
	for v := older; v != nil; v = v.prev {
		if v.vals != nil {
			t.indexLocked(r, v.vals)
		}
	}
	t.reindexLocked(r)
	t.placeLocked(r)
}

// clearLocked removes r from the table and its indexes.
func (t *Table) clearLocked(r *Row) {
	r.committed, r.lsn, r.older, r.pending = nil, 0, nil, nil
	t.reindexLocked(r)
	t.placeLocked(r)
}

// Duplicate, after Finish, counts the new table's rows (Rows) and finds the first row, in the new table's key order, whose
// values collide with another row's on a UNIQUE index or on the primary
// key: the index (-1: primary key) and the row's values, or ok false.
func (b *Rebuild) Duplicate() (idx int, vals []types.Value, found bool) {
	nt := b.New
	nt.mu.RLock()
	defer nt.mu.RUnlock()
	if b.streamed {
		// Rows as they were and no UNIQUE key added: nothing can collide.
		b.rows = int(nt.count)
		return 0, nil, false
	}
	b.rows = 0
	nt.order.Scan(func(r *Row) bool {
		if r.committed == nil {
			return true
		}
		b.rows++
		if !b.sameKey && b.owners[r.Key] > 1 {
			idx, vals, found = -1, r.committed, true
			return false
		}
		for i, ix := range nt.Def.Indexes {
			if !ix.Unique || ix.Primary {
				continue
			}
			k, ok := nt.IndexKey(i, r.committed)
			if !ok {
				continue
			}
			for _, o := range nt.secondary[i][k] {
				if o != r && o.committed != nil {
					if k2, ok2 := nt.IndexKey(i, o.committed); ok2 && k2 == k {
						idx, vals, found = i, r.committed, true
						return false
					}
				}
			}
		}
		return true
	})
	return idx, vals, found
}

// Publish readies the new table for the catalog at the ALTER's LSN: when
// rows were rekeyed (no older versions), snapshots below lsn cannot read
// it.
func (b *Rebuild) Publish(lsn uint64) {
	b.published = true
	if !b.sameKey {
		b.New.rebuiltAt = lsn
	}
}

// SetAutoIncFrom gives the new table the old one's AUTO_INCREMENT counter,
// or the explicit AUTO_INCREMENT = n (want, 0 if none) when it is above
// every value the column holds, as InnoDB does. It returns the counter set.
func (b *Rebuild) SetAutoIncFrom(want uint64) uint64 {
	c := b.Old.AutoInc()
	if want > 0 {
		c = want - 1
	}
	if ai := b.New.Def.AutoIncColumn(); ai >= 0 {
		// A column just made AUTO_INCREMENT (or a counter set below the
		// values) continues after the largest value, as InnoDB does.
		c = max(c, b.maxValue(ai))
	}
	b.New.SetAutoInc(c)
	return c
}

// maxValue is the largest positive integer column c holds.
func (t *Table) maxValue(c int) uint64 {
	if t.store != nil {
		var m uint64
		t.ScanEach(0, Newest, nil, nil, func(it ScanItem) bool {
			if it.Vals != nil {
				if n, ok := it.Vals[c].ToInt64(); ok && n > 0 && uint64(n) > m {
					m = uint64(n)
				}
			}
			return true
		})
		return m
	}
	t.mu.RLock()
	defer t.mu.RUnlock()
	var m uint64
	for _, r := range t.rows {
		if r.committed != nil {
			if n, ok := r.committed[c].ToInt64(); ok && n > 0 && uint64(n) > m {
				m = uint64(n)
			}
		}
	}
	return m
}
