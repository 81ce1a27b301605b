package txn

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/storage/kv"
	"github.com/plrun/plrun/types"
)

// The applier writes committed log records into the table store, in LSN
// order, once they are durable (doc.go, "Apply, flush, truncate"): one
// goroutine, batches of whole records, each batch committed with the LSN
// of its last record as the store's applied LSN. After each batch it
// evicts clean rows while the resident rows are over their budget.
type applier struct {
	m      *Manager
	store  *kv.Store
	budget int64 // bytes of resident rows

	mu      sync.Mutex
	wake    *sync.Cond // items queued, or closing
	applied *sync.Cond // a batch was committed
	queue   []applyItem
	closing bool
	stopped bool
	busy    uint64 // the first LSN of the batch being applied (0: none)
	err     error  // the store failed: nothing more is applied

	tables  map[uint64]*storage.Table // the catalog as of the last record applied (by table id)
	done    chan struct{}
	evicted atomic.Uint64
}

// applyItem is one log record to apply: a commit's rows (as the commit
// installed them; or its redo, replayed by recovery), or a DDL record's
// effect.
type applyItem struct {
	lsn  uint64
	rows []applyRow
	redo []byte
	size int // bytes of the record's redo
	ddl  *DDLEffect
}

// applyRow is one row a commit changed, as it is in memory: its table's
// id, its encoded key and values (nil: deleted); fresh: it had no
// committed version before (PendingFresh).
type applyRow struct {
	id    uint64
	key   string
	vals  []types.Value
	fresh bool
}

// DDLEffect is what a DDL record changes in the store: the catalog
// header after it, the key spaces it dropped, the tables whose rows must
// be written (created or rebuilt in memory: unfilled), read at snapshot
// Snap (registered until the fill is done; 0: none registered, read the
// newest — recovery).
type DDLEffect struct {
	Header []byte
	Tables map[uint64]*storage.Table
	Drop   []uint64
	Fill   []*storage.Table
	Snap   uint64
	held   bool
}

// DataIDs lists the key spaces of cat's backed tables (before a DDL
// record, for DDLEffectOf).
func DataIDs(cat *storage.Catalog) map[uint64]bool {
	ids := map[uint64]bool{}
	for _, t := range cat.AllTables() {
		if t.Backed() {
			ids[t.DataID()] = true
		}
	}
	return ids
}

// DDLEffectOf is the effect of a DDL record that turned a catalog whose
// key spaces were before into cat.
func DDLEffectOf(before map[uint64]bool, cat *storage.Catalog, header []byte) *DDLEffect {
	e := &DDLEffect{Header: header, Tables: map[uint64]*storage.Table{}}
	after := map[uint64]bool{}
	for _, t := range cat.AllTables() {
		if !t.Backed() {
			continue
		}
		e.Tables[t.Def.ID] = t
		after[t.DataID()] = true
		if t.Unfilled() && !before[t.DataID()] {
			e.Fill = append(e.Fill, t)
		}
	}
	for id := range before {
		if !after[id] {
			e.Drop = append(e.Drop, id)
		}
	}
	return e
}

func tablesOf(cat *storage.Catalog) map[uint64]*storage.Table {
	m := map[uint64]*storage.Table{}
	for _, t := range cat.AllTables() {
		if t.Backed() {
			m[t.Def.ID] = t
		}
	}
	return m
}

// enqueue adds the record at lsn; records arrive in LSN order (commits
// under vis.mu right after their Append, DDL under the exclusive latch).
func (a *applier) enqueue(it applyItem) {
	a.mu.Lock()
	a.queue = append(a.queue, it)
	if len(a.queue) == 1 {
		a.wake.Signal()
	}
	a.mu.Unlock()
}

// maxApplyBatch bounds the redo bytes of one batch.
const maxApplyBatch = 4 << 20

func (a *applier) run() {
	defer close(a.done)
	a.evict() // an upgrade or a recovery may start over budget
	for {
		a.mu.Lock()
		for len(a.queue) == 0 && !a.closing {
			a.wake.Wait()
		}
		if len(a.queue) == 0 {
			a.stopped = true
			a.applied.Broadcast()
			a.mu.Unlock()
			return
		}
		first := a.queue[0].lsn
		a.mu.Unlock()
		if a.m.Pipe.DurableLSN() < first {
			if err := a.m.Pipe.WaitDurable(context.Background(), first); err != nil {
				// The log failed (fail-stop) or closed before the record
				// was durable: it may not survive, so it is never applied.
				a.stop(nil)
				return
			}
		}
		durable := a.m.Pipe.DurableLSN()
		a.mu.Lock()
		n, size := 0, 0
		for n < len(a.queue) && a.queue[n].lsn <= durable && (n == 0 || size < maxApplyBatch) {
			size += a.queue[n].size
			n++
		}
		items := append([]applyItem(nil), a.queue[:n]...)
		a.queue = append(a.queue[:0], a.queue[n:]...)
		a.busy = first
		a.mu.Unlock()
		if err := a.apply(items); err != nil {
			a.stop(err)
			return
		}
		a.mu.Lock()
		a.busy = 0
		a.applied.Broadcast()
		a.mu.Unlock()
		a.evict()
	}
}

// stop ends the applier after a failure: what is not applied stays in
// the log, which is then never truncated past the store's applied LSN.
func (a *applier) stop(err error) {
	a.mu.Lock()
	a.stopped = true
	if err != nil {
		a.err = err
		if a.m.OnApplyFailure != nil {
			a.m.OnApplyFailure(err)
		}
	}
	for _, it := range a.queue {
		if it.ddl != nil {
			a.m.releaseEffect(it.ddl)
		}
	}
	a.queue = nil
	a.applied.Broadcast()
	a.mu.Unlock()
}

// apply writes items (in LSN order) as one batch, committing early only
// inside a large fill.
func (a *applier) apply(items []applyItem) error {
	b := a.store.NewBatch()
	defer func() { b.Close() }()
	counts := map[uint64]int64{}
	autos := map[uint64]uint64{}
	// Row changes are staged by key so a row written many times in one
	// batch (a hot row) is written to the store once, as its last state.
	type change struct {
		t      *storage.Table
		key    string
		vals   []types.Value
		lsn    uint64
		dataID uint64
		fresh  bool
	}
	type stageKey struct {
		dataID uint64
		key    string
	}
	staged := map[stageKey]int{}
	var changes []change
	var buf storage.ApplyBuf
	flush := func() error {
		for _, c := range changes {
			d, err := c.t.ApplyKeyToStore(b, c.key, c.vals, c.lsn, c.fresh, &buf)
			if err != nil {
				return fmt.Errorf("applying LSN %d: %w", c.lsn, err)
			}
			counts[c.dataID] += d
		}
		changes = changes[:0]
		clear(staged)
		for id, d := range counts {
			if d != 0 {
				if err := b.AddCount(id, d); err != nil {
					return err
				}
			}
		}
		for id, v := range autos {
			if err := b.RaiseAutoInc(id, v); err != nil {
				return err
			}
		}
		clear(counts)
		clear(autos)
		return nil
	}
	var filled []*storage.Table
	var last uint64
	for _, it := range items {
		last = it.lsn
		if it.ddl == nil {
			stage := func(r applyRow) {
				t := a.tables[r.id]
				if t == nil {
					return // dropped after (a DROP later in the log won)
				}
				dataID := t.DataID()
				k := stageKey{dataID, r.key}
				c := change{t: t, key: r.key, vals: r.vals, lsn: it.lsn, dataID: dataID, fresh: r.fresh}
				if i, ok := staged[k]; ok {
					// The store's state is the one before the batch's
					// first change of the key: its freshness holds.
					c.fresh = changes[i].fresh
					changes[i] = c
				} else {
					staged[k] = len(changes)
					changes = append(changes, c)
				}
				if n := t.NoteAutoInc(r.vals); n > autos[dataID] {
					autos[dataID] = n
				}
			}
			for _, r := range it.rows {
				stage(r)
			}
			if it.redo != nil {
				err := eachRedoRow(it.redo, func(id uint64, pk, vals []types.Value) error {
					stage(applyRow{id: id, key: storage.KeyOf(pk), vals: vals})
					return nil
				})
				if err != nil {
					return fmt.Errorf("applying LSN %d: %w", it.lsn, err)
				}
			}
			continue
		}
		if err := flush(); err != nil {
			return err
		}
		e := it.ddl
		for _, id := range e.Drop {
			if err := b.DropData(id); err != nil {
				return err
			}
		}
		snap := e.Snap
		if snap == 0 {
			snap = storage.Newest
		}
		for _, t := range e.Fill {
			var err error
			b, _, err = t.FillStore(b, snap, func(full *kv.Batch) (*kv.Batch, error) {
				// Part of a fill: the applied LSN stays where it was
				// (the header does not name these rows yet).
				if err := full.Commit(a.store.Applied()); err != nil {
					return full, err
				}
				return a.store.NewBatch(), nil
			})
			if err != nil {
				return fmt.Errorf("writing the rows of %s.%s: %w", t.Def.DB, t.Def.Name, err)
			}
			filled = append(filled, t)
		}
		if err := b.SetCatalog(e.Header); err != nil {
			return err
		}
		a.tables = e.Tables
		a.m.releaseEffect(e)
	}
	if err := flush(); err != nil {
		return err
	}
	if err := b.Commit(last); err != nil {
		return err
	}
	for _, t := range filled {
		t.Filled()
	}
	return nil
}

// evict drops clean rows while the resident rows are over budget.
func (a *applier) evict() {
	if a.budget <= 0 {
		return
	}
	var total int64
	var backed []*storage.Table
	for _, t := range a.tables {
		if b := t.ResidentBytes(); b > 0 {
			total += b
			backed = append(backed, t)
		}
	}
	if total <= a.budget {
		return
	}
	applied, horizon := a.store.Applied(), a.m.vis.horizon()
	goal := a.budget * 9 / 10
	for round := 0; round < 8 && total > goal; round++ {
		progress := false
		for _, t := range backed {
			share := t.ResidentBytes()
			if share == 0 {
				continue
			}
			// evict in proportion to what the table holds
			want := int((total - goal) * share / total / t.RowCost())
			want = max(min(want, 1<<16), 64)
			// A chunk per hold of the table's lock, so the sessions
			// writing it wait for one chunk, not for the whole pass.
			for want > 0 {
				n := t.Evict(min(want, evictChunk), applied, horizon)
				if n == 0 {
					break
				}
				progress = true
				a.evicted.Add(uint64(n))
				want -= n
				runtime.Gosched()
			}
		}
		total = 0
		for _, t := range backed {
			total += t.ResidentBytes()
		}
		if !progress {
			break
		}
	}
}

// evictChunk is how many rows one Evict call drops at most.
const evictChunk = 512

// releaseEffect releases a DDL effect's snapshot.
func (m *Manager) releaseEffect(e *DDLEffect) {
	if e.held {
		e.held = false
		m.vis.release(e.Snap)
	}
}

// ErrApplierStopped is returned by WaitApplied once the applier stopped
// before reaching the LSN.
var ErrApplierStopped = errors.New("txn: the table store's applier has stopped")

// WaitApplied waits until every record up to lsn is applied to the store.
func (m *Manager) WaitApplied(ctx context.Context, lsn uint64) error {
	a := m.apply
	if a == nil {
		return nil
	}
	stop := context.AfterFunc(ctx, func() {
		a.mu.Lock()
		a.applied.Broadcast()
		a.mu.Unlock()
	})
	defer stop()
	a.mu.Lock()
	defer a.mu.Unlock()
	for {
		// Records not applied yet are queued or in the batch being
		// written; records that are neither (chunks of a transaction,
		// whose commit record carries the rows) need nothing.
		pending := (len(a.queue) > 0 && a.queue[0].lsn <= lsn) || (a.busy != 0 && a.busy <= lsn)
		if !pending {
			return nil
		}
		if a.err != nil {
			return fmt.Errorf("%w: %w", ErrApplierStopped, a.err)
		}
		if a.stopped {
			return ErrApplierStopped
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		a.applied.Wait()
	}
}

// StartApplier starts applying committed records to store, beginning
// with pending (the records recovery replayed after the store's applied
// LSN, in order). tables is the catalog as of the store's applied LSN;
// budget bounds the resident rows' bytes (0: no eviction).
func (m *Manager) StartApplier(store *kv.Store, tables map[uint64]*storage.Table, pending []ReplayedRecord, budget int64) {
	a := &applier{m: m, store: store, budget: budget, tables: tables, done: make(chan struct{})}
	a.wake = sync.NewCond(&a.mu)
	a.applied = sync.NewCond(&a.mu)
	for _, r := range pending {
		a.queue = append(a.queue, applyItem{lsn: r.LSN, redo: r.Redo, size: len(r.Redo), ddl: r.DDL})
	}
	m.apply = a
	go a.run()
}

// StopApplier applies what is queued and durable, then stops. The caller
// has closed the pipeline (nothing more is appended).
func (m *Manager) StopApplier() error {
	a := m.apply
	if a == nil {
		return nil
	}
	a.mu.Lock()
	a.closing = true
	a.wake.Broadcast()
	a.mu.Unlock()
	<-a.done
	return a.err
}

// ReplayedRecord is a record recovery replayed into memory that the store
// does not have yet: a commit's redo or a DDL record's effect.
type ReplayedRecord struct {
	LSN  uint64
	Redo []byte
	DDL  *DDLEffect
}

// TablesOf is cat's backed tables by id (StartApplier's tables).
func TablesOf(cat *storage.Catalog) map[uint64]*storage.Table { return tablesOf(cat) }

// StoreStats is the table store's state (SHOW GLOBAL STATUS).
type StoreStats struct {
	Applied, Flushed            uint64 // the store's applied LSN, and the one its last flush made durable
	Queued                      int    // records waiting for the applier
	ResidentRows, ResidentBytes int64  // rows in memory, and their estimated bytes
	Budget                      int64  // the bytes resident rows are evicted down to
	Evicted                     uint64 // rows evicted since start
	BlockCache, Memtables       int64  // pebble's memory outside the Go heap (kv.Store.Memory)
}

// StoreStats reports the table store's state.
func (m *Manager) StoreStats() StoreStats {
	a := m.apply
	if a == nil {
		return StoreStats{}
	}
	s := StoreStats{Applied: a.store.Applied(), Flushed: a.store.Flushed(), Budget: a.budget, Evicted: a.evicted.Load()}
	s.BlockCache, s.Memtables = a.store.Memory()
	a.mu.Lock()
	s.Queued = len(a.queue)
	a.mu.Unlock()
	for _, t := range m.Catalog().AllTables() {
		s.ResidentRows += int64(t.ResidentRows())
		s.ResidentBytes += t.ResidentBytes()
	}
	return s
}
