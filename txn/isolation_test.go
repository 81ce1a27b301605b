package txn

import (
	"context"
	"testing"

	"github.com/plrun/plrun/asynccommit"
	"github.com/plrun/plrun/lockmgr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
	"github.com/plrun/plrun/wal"
)

func newTestManager(t *testing.T) (*Manager, *storage.Table) {
	t.Helper()
	log, err := wal.Open(t.TempDir(), wal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pipe := asynccommit.Open(log, asynccommit.Options{})
	t.Cleanup(func() { pipe.Close(); log.Close() })
	cat := storage.NewCatalog()
	tab, _ := cat.AddTable(&storage.TableDef{ID: 1, DB: "test", Name: "t",
		Columns: []storage.Column{{Name: "id", Type: types.ColType{Base: types.TInt}}, {Name: "v", Type: types.ColType{Base: types.TInt}}},
		Indexes: []storage.IndexDef{{Name: "PRIMARY", Cols: []int{0}, Primary: true, Unique: true}}})
	return NewManager(cat, lockmgr.New(lockmgr.Options{Durability: pipe}), pipe, log), tab
}

func put(t *testing.T, m *Manager, tab *storage.Table, v int64) {
	t.Helper()
	x := m.Begin()
	pk := []types.Value{types.IntValue(1)}
	key := storage.KeyOf(pk)
	if err := x.Lock(context.Background(), tab, key); err != nil {
		t.Fatal(err)
	}
	x.BeginStatement(0, false)
	x.Write(tab, tab.Slot(key, pk), []types.Value{types.IntValue(1), types.IntValue(v)})
	if _, err := x.Commit(context.Background(), CommitOptions{}); err != nil {
		t.Fatal(err)
	}
}

func get(x *Txn, tab *storage.Table) int64 {
	pk := []types.Value{types.IntValue(1)}
	v := x.ReadSnapshot(tab, tab.Slot(storage.KeyOf(pk), pk))
	if v.Vals == nil {
		return -1
	}
	return v.Vals[1].I
}

// TestReadView: a REPEATABLE READ transaction's consistent reads keep one
// read view, held in the visibility horizon until it ends, while its
// locking statements and a READ COMMITTED transaction read the newest.
func TestReadView(t *testing.T) {
	m, tab := newTestManager(t)
	put(t, m, tab, 1)
	rr, rc := m.Begin(), m.Begin()
	rc.SetIsolation(ReadCommitted)
	rr.BeginStatement(0, true)
	rc.BeginStatement(0, true)
	if get(rr, tab) != 1 || get(rc, tab) != 1 {
		t.Fatal("first reads")
	}
	view := rr.view
	rr.EndStatement()
	rc.EndStatement()
	for v := int64(2); v <= 4; v++ {
		put(t, m, tab, v) // each install trims to the horizon
	}
	if h := m.vis.horizon(); h != view {
		t.Fatalf("horizon %d, want the read view %d", h, view)
	}
	rr.BeginStatement(0, true)
	rc.BeginStatement(0, true)
	if got := get(rr, tab); got != 1 {
		t.Errorf("REPEATABLE READ consistent read: %d, want 1", got)
	}
	if got := get(rc, tab); got != 4 {
		t.Errorf("READ COMMITTED read: %d, want 4", got)
	}
	rr.BeginStatement(0, false) // a locking statement
	if got := get(rr, tab); got != 4 {
		t.Errorf("REPEATABLE READ locking statement: %d, want 4", got)
	}
	rr.Rollback()
	rc.Rollback()
	if h := m.vis.horizon(); h == view {
		t.Errorf("horizon still held at %d after the transaction ended", h)
	}
}
