package storage

import (
	"fmt"
	"math/rand"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plrun/plrun/storage/kv"
	"github.com/plrun/plrun/types"
)

// The tests here run scans and stored-index reads of a backed table
// while a writer commits, an applier writes the commits to the store and
// an evictor drops clean rows (and purges tombstones), as txn does, and
// check every read against a model of the committed history: at its
// snapshot, every row the reader should see is seen once, with its
// version at the snapshot.

// lfSnaps is the snapshots in use and the horizon below them (txn's
// visibility, reduced).
type lfSnaps struct {
	mu      sync.Mutex
	visible uint64
	active  map[uint64]int
}

func (s *lfSnaps) acquire() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.active[s.visible]++
	return s.visible
}

func (s *lfSnaps) release(v uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.active[v]--; s.active[v] == 0 {
		delete(s.active, v)
	}
}

func (s *lfSnaps) horizon() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := s.visible
	for v := range s.active {
		h = min(h, v)
	}
	return h
}

func (s *lfSnaps) publish(lsn uint64) {
	s.mu.Lock()
	s.visible = lsn
	s.mu.Unlock()
}

// lfVersion is one committed version in the model (vals nil: deleted).
type lfVersion struct {
	lsn uint64
	v   int64 // the indexed column
	del bool
}

// lfModel is every key's committed history.
type lfModel struct {
	mu   sync.RWMutex
	hist map[int64][]lfVersion
}

func (m *lfModel) add(id int64, ver lfVersion) {
	m.mu.Lock()
	m.hist[id] = append(m.hist[id], ver)
	m.mu.Unlock()
}

// at is what snapshot snap sees of every key: key -> version (present
// and deleted ones; a key with nothing at or below snap is left out).
func (m *lfModel) at(snap uint64) map[int64]lfVersion {
	m.mu.RLock()
	defer m.mu.RUnlock()
	out := map[int64]lfVersion{}
	for id, h := range m.hist {
		for i := len(h) - 1; i >= 0; i-- {
			if h[i].lsn <= snap {
				out[id] = h[i]
				break
			}
		}
	}
	return out
}

// lfRig is a backed table with id (PRIMARY KEY) and v (KEY iv), its
// writer, applier and evictor.
type lfRig struct {
	t     *testing.T
	store *kv.Store
	tb    *Table
	snaps *lfSnaps
	model *lfModel
	lsn   uint64
	txn   TxnID
	apply chan lfApply
	// stats: how often the evictor dropped rows, and the writes done
	evicted, writes atomic.Int64
}

type lfApply struct {
	pk, vals []types.Value
	lsn      uint64
}

// newBackedIV is an empty backed table (id, v; KEY iv (v)) with table id
// id in a new store of cacheBytes of block cache (0: the default).
func newBackedIV(tb testing.TB, id uint64, cacheBytes int64) (*kv.Store, *Table) {
	s, err := kv.Open(tb.TempDir(), kv.Options{CacheBytes: cacheBytes})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	def := &TableDef{ID: id, Name: "t", Columns: []Column{intCol("id"), intCol("v")}, Indexes: []IndexDef{
		{Name: "PRIMARY", Cols: []int{0}, Primary: true, Unique: true},
		{Name: "iv", Cols: []int{1}},
	}}
	t := NewTable(def)
	t.attach(s, id, false)
	return s, t
}

const lfValues = 40 // distinct values of v

func newLFRig(t *testing.T, rows int) *lfRig {
	s, tb := newBackedIV(t, 7, 0)
	g := &lfRig{t: t, store: s, tb: tb, snaps: &lfSnaps{active: map[uint64]int{}}, model: &lfModel{hist: map[int64][]lfVersion{}}}
	// the initial rows: committed, applied, then (nearly all) evicted
	b := s.NewBatch()
	for id := int64(1); id <= int64(rows); id++ {
		g.commit(id, id%lfValues, false, func(pk, vals []types.Value, lsn uint64) {
			if _, err := tb.ApplyToStore(b, pk, vals, lsn); err != nil {
				t.Fatal(err)
			}
		})
	}
	if err := b.Commit(g.lsn); err != nil {
		t.Fatal(err)
	}
	for range 3 { // twice for the second chance, once more for luck
		tb.Evict(rows, s.Applied(), g.snaps.horizon())
	}
	if n := tb.ResidentRows(); n > rows/10 {
		t.Fatalf("%d of %d rows resident after eviction", n, rows)
	}
	return g
}

// commit commits one change of row id (del: its deletion) as txn does:
// the pending write, its index entries, the install at the next LSN, the
// model, then the snapshot that sees it; apply hands it to the store.
func (g *lfRig) commit(id, v int64, del bool, apply func(pk, vals []types.Value, lsn uint64)) {
	tb := g.tb
	pk := []types.Value{types.IntValue(id)}
	var vals []types.Value
	if !del {
		vals = []types.Value{types.IntValue(id), types.IntValue(v)}
	}
	g.txn++
	r := tb.Slot(KeyOf(pk), pk)
	r, _ = tb.SetPending(r, &Pending{Owner: g.txn, Vals: vals})
	if vals != nil {
		tb.IndexRow(r, vals)
	}
	g.lsn++
	tb.InstallAll([]*Row{r}, g.txn, g.lsn, g.snaps.horizon())
	g.model.add(id, lfVersion{lsn: g.lsn, v: v, del: del})
	g.snaps.publish(g.lsn)
	apply(pk, vals, g.lsn)
}

// run runs the writer, the applier and the evictor until stop closes;
// the returned wait ends when they have.
func (g *lfRig) run(stop chan struct{}, rows int) (wait func()) {
	var wg sync.WaitGroup
	g.apply = make(chan lfApply, 64)
	fail := func(err error) {
		g.t.Error(err)
	}
	wg.Add(3)
	go func() { // writer
		defer wg.Done()
		defer close(g.apply)
		rnd := rand.New(rand.NewSource(1))
		next := int64(rows) + 1
		for {
			select {
			case <-stop:
				return
			default:
			}
			switch x := rnd.Intn(20); {
			case x == 0: // a new row
				g.commit(next, rnd.Int63n(lfValues), false, g.send)
				next++
			case x == 1: // a deletion
				g.commit(1+rnd.Int63n(next-1), 0, true, g.send)
			case x == 2: // an insert rolled back: its slot leaves memory
				pk := []types.Value{types.IntValue(next + 1000000)}
				g.txn++
				r := g.tb.Slot(KeyOf(pk), pk)
				r, prev := g.tb.SetPending(r, &Pending{Owner: g.txn, Vals: []types.Value{pk[0], types.IntValue(3)}})
				g.tb.RestorePending(r, prev)
			default: // an update of v (or a deleted row's insert again)
				g.commit(1+rnd.Int63n(next-1), rnd.Int63n(lfValues), false, g.send)
			}
			g.writes.Add(1)
		}
	}()
	go func() { // applier: batches of what was committed, in LSN order
		defer wg.Done()
		for c := range g.apply {
			b := g.store.NewBatch()
			last := c.lsn
			if _, err := g.tb.ApplyToStore(b, c.pk, c.vals, c.lsn); err != nil {
				fail(err)
			}
		more:
			for range 16 {
				select {
				case c, ok := <-g.apply:
					if !ok {
						break more
					}
					if _, err := g.tb.ApplyToStore(b, c.pk, c.vals, c.lsn); err != nil {
						fail(err)
					}
					last = c.lsn
				default:
					break more
				}
			}
			if err := b.Commit(last); err != nil {
				fail(err)
			}
		}
	}()
	go func() { // evictor and purger
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			h := min(g.snaps.horizon(), g.store.Applied())
			if n := g.tb.Evict(200, g.store.Applied(), g.snaps.horizon()); n > 0 {
				g.evicted.Add(int64(n))
			}
			if i%8 == 0 {
				g.tb.Purge(h)
			}
			time.Sleep(50 * time.Microsecond)
		}
	}()
	return wg.Wait
}

func (g *lfRig) send(pk, vals []types.Value, lsn uint64) {
	g.apply <- lfApply{pk, vals, lsn}
}

func idOf(r *Row) int64 {
	n, _ := r.PK[0].ToInt64()
	return n
}

// entryValue is v in an entry of index iv.
func entryValue(vals []types.Value) int64 {
	n, _ := vals[0].ToInt64()
	return n
}

func vOf(vals []types.Value) int64 {
	n, _ := vals[1].ToInt64()
	return n
}

// checkScan scans ids [lo, hi] (0: unbounded) at a snapshot and checks it
// against the model.
func (g *lfRig) checkScan(lo, hi int64) error {
	snap := g.snaps.acquire()
	defer g.snaps.release(snap)
	var lov, hiv *types.Value
	if lo > 0 {
		v := types.IntValue(lo)
		lov = &v
	}
	if hi > 0 {
		v := types.IntValue(hi)
		hiv = &v
	}
	var got []ScanItem
	g.tb.ScanEach(0, snap, lov, hiv, func(it ScanItem) bool {
		got = append(got, it)
		return true
	})
	want := g.model.at(snap)
	inRange := func(id int64) bool { return (lo == 0 || id >= lo) && (hi == 0 || id <= hi) }
	seen := map[int64]bool{}
	prev := ""
	for _, it := range got {
		id := idOf(it.Row)
		if it.Row.Key <= prev {
			return fmt.Errorf("snapshot %d: row %d out of key order (or twice)", snap, id)
		}
		prev = it.Row.Key
		if !inRange(id) {
			return fmt.Errorf("snapshot %d: row %d outside [%d, %d]", snap, id, lo, hi)
		}
		w, ok := want[id]
		switch {
		case !ok:
			return fmt.Errorf("snapshot %d: row %d seen, never committed at or below it", snap, id)
		case it.Vals == nil && !w.del:
			return fmt.Errorf("snapshot %d: row %d seen deleted (LSN %d), want v=%d at LSN %d", snap, id, it.LSN, w.v, w.lsn)
		case it.Vals == nil && it.LSN != w.lsn:
			return fmt.Errorf("snapshot %d: row %d deleted at LSN %d, want %d", snap, id, it.LSN, w.lsn)
		case it.Vals != nil && (w.del || vOf(it.Vals) != w.v || it.LSN != w.lsn):
			return fmt.Errorf("snapshot %d: row %d is v=%d at LSN %d, want %+v", snap, id, vOf(it.Vals), it.LSN, w)
		}
		if it.Vals != nil {
			seen[id] = true
		}
	}
	for id, w := range want {
		if !w.del && inRange(id) && !seen[id] {
			return fmt.Errorf("snapshot %d: row %d (v=%d at LSN %d) missing from the scan of %d items", snap, id, w.v, w.lsn, len(got))
		}
	}
	return nil
}

// checkIndex reads index iv for v in [lo, hi] (IndexEntries) and for v =
// lo (IndexCandidates) at a snapshot, keeps what a reader keeps (the
// rows whose version at the snapshot has the entry's value) and checks
// it against the model.
func (g *lfRig) checkIndex(lo, hi int64) error {
	snap := g.snaps.acquire()
	defer g.snaps.release(snap)
	lov, hiv := types.IntValue(lo), types.IntValue(hi)
	entries := g.tb.IndexEntries(1, nil, &lov, &hiv)
	key, _ := g.tb.IndexKey(1, []types.Value{types.Null, lov})
	cands := g.tb.IndexCandidates(1, key, []types.Value{lov})
	want := g.model.at(snap)
	check := func(what string, rows []*Row, vals [][]types.Value, lo, hi int64) error {
		seen := map[int64]bool{}
		for i, r := range rows {
			ver := g.tb.Read(r, 0, snap)
			if ver.Vals == nil {
				continue
			}
			v := vOf(ver.Vals)
			if v < lo || v > hi || (vals != nil && entryValue(vals[i]) != v) {
				continue // another version's entry
			}
			id := idOf(r)
			if seen[id] {
				return fmt.Errorf("snapshot %d: %s lists row %d twice", snap, what, id)
			}
			seen[id] = true
			if w, ok := want[id]; !ok || w.del || w.v != v || w.lsn != ver.LSN {
				return fmt.Errorf("snapshot %d: %s: row %d is v=%d at LSN %d, want %+v", snap, what, id, v, ver.LSN, w)
			}
		}
		for id, w := range want {
			if !w.del && w.v >= lo && w.v <= hi && !seen[id] {
				return fmt.Errorf("snapshot %d: %s misses row %d (v=%d at LSN %d)", snap, what, id, w.v, w.lsn)
			}
		}
		return nil
	}
	var rows []*Row
	var vals [][]types.Value
	for i, e := range entries {
		if i > 0 && ordLess(ordEntry{e.Vals, e.Row}, ordEntry{entries[i-1].Vals, entries[i-1].Row}) {
			return fmt.Errorf("snapshot %d: index entries out of order at %d", snap, i)
		}
		rows, vals = append(rows, e.Row), append(vals, e.Vals)
	}
	if err := check("IndexEntries", rows, vals, lo, hi); err != nil {
		return err
	}
	return check("IndexCandidates", cands, nil, lo, lo)
}

// TestLockFreeReadsWhileEvicting runs scans and index reads of a table
// whose rows are mostly only stored while a writer, the applier and the
// evictor run, and checks each read against the model.
func TestLockFreeReadsWhileEvicting(t *testing.T) {
	const rows = 3000
	g := newLFRig(t, rows)
	for _, check := range []func() error{
		func() error { return g.checkScan(0, 0) },
		func() error { return g.checkIndex(0, lfValues-1) },
	} {
		if err := check(); err != nil {
			t.Fatal("before the writers:", err)
		}
	}
	stop := make(chan struct{})
	wait := g.run(stop, rows)
	var wg sync.WaitGroup
	var reads atomic.Int64
	errs := make(chan error, 4)
	deadline := time.Now().Add(1500 * time.Millisecond)
	for w := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rnd := rand.New(rand.NewSource(int64(w) + 10))
			for i := 0; time.Now().Before(deadline) || i < 4; i++ {
				var err error
				switch w {
				case 0:
					err = g.checkScan(0, 0)
				case 1:
					lo := 1 + rnd.Int63n(rows)
					err = g.checkScan(lo, lo+rnd.Int63n(900))
				default:
					lo := rnd.Int63n(lfValues)
					err = g.checkIndex(lo, min(lo+rnd.Int63n(4), lfValues-1))
				}
				reads.Add(1)
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if g.evicted.Load() == 0 || g.writes.Load() == 0 {
		t.Fatalf("the readers ran beside %d writes and %d evictions: the test did not test", g.writes.Load(), g.evicted.Load())
	}
	t.Logf("%d reads beside %d writes and %d evictions; %d of the rows resident at the end", reads.Load(), g.writes.Load(), g.evicted.Load(), g.tb.ResidentRows())
}
