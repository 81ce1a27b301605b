package txn

import (
	"errors"
	"testing"

	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/storage/kv"
	"github.com/plrun/plrun/types"
)

// alterRig is a catalog over a store holding test.t (id, v) with rows 1..n
// in the store only; damage breaks row 5's stored value.
func alterRig(t *testing.T, n int64, damage bool) (*storage.Catalog, *storage.TableDef) {
	s, err := kv.Open(t.TempDir(), kv.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	cat := storage.NewCatalog()
	cat.SetStore(s)
	intc := func(name string) storage.Column {
		return storage.Column{Name: name, Type: types.ColType{Base: types.TInt}}
	}
	def := &storage.TableDef{ID: 1, DB: "test", Name: "t", Columns: []storage.Column{intc("id"), intc("v")},
		Indexes: []storage.IndexDef{{Name: "PRIMARY", Cols: []int{0}, Primary: true, Unique: true}}}
	tab, _ := cat.AddTable(def)
	for i := int64(1); i <= n; i++ {
		pk := []types.Value{types.IntValue(i)}
		tab.Apply(storage.KeyOf(pk), pk, []types.Value{pk[0], types.IntValue(10 * i)}, 1)
	}
	b := s.NewBatch()
	b, _, err = tab.FillStore(b, storage.Newest, func(full *kv.Batch) (*kv.Batch, error) { return s.NewBatch(), full.Commit(1) })
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(1); err != nil {
		t.Fatal(err)
	}
	tab.Filled()
	tab.Evict(int(n), 1, 1)
	tab.Evict(int(n), 1, 1)
	if r := tab.ResidentRows(); r != 0 {
		t.Fatalf("%d rows resident after eviction", r)
	}
	if damage {
		b := s.NewBatch()
		pk := []types.Value{types.IntValue(5)}
		if err := b.Set(kv.RowKey(nil, tab.DataID(), storage.KeyOf(pk)), []byte{0x80}); err != nil {
			t.Fatal(err)
		}
		if err := b.Commit(2); err != nil {
			t.Fatal(err)
		}
	}
	return cat, def
}

// TestReplayAlterStoreFailure: an ALTER TABLE whose replay cannot read
// the table store fails the replay with a *storage.StoreError (the
// table keeps its old definition, and recovery stops there), both for a
// rebuild that loads the stored rows and for a streamed one that copies
// them store to store; on an undamaged store the same records replay,
// and a row that does not convert skips the record as before.
func TestReplayAlterStoreFailure(t *testing.T) {
	intc := func(name string) storage.Column {
		return storage.Column{Name: name, Type: types.ColType{Base: types.TInt}}
	}
	pkIdx := storage.IndexDef{Name: "PRIMARY", Cols: []int{0}, Primary: true, Unique: true}
	addColumn := func() *DDLRecord { // ADD COLUMN w INT DEFAULT 7: rows converted, loaded in memory
		return &DDLRecord{Op: "alter_table", DB: "test", Name: "t",
			Def: &storage.TableDef{ID: 2, DB: "test", Name: "t", Columns: []storage.Column{intc("id"), intc("v"), intc("w")},
				Indexes: []storage.IndexDef{pkIdx}},
			Shape: &storage.Reshape{Source: []int{0, 1, -1}, Fill: []types.Value{types.Null, types.Null, types.IntValue(7)}}}
	}
	addIndex := func() *DDLRecord { // ADD INDEX iv (v): streamed, rows copied store to store
		return &DDLRecord{Op: "alter_table", DB: "test", Name: "t",
			Def: &storage.TableDef{ID: 2, DB: "test", Name: "t", Columns: []storage.Column{intc("id"), intc("v")},
				Indexes: []storage.IndexDef{pkIdx, {Name: "iv", Cols: []int{1}}}},
			Shape: &storage.Reshape{Source: []int{0, 1}, Fill: []types.Value{types.Null, types.Null}}}
	}
	for _, tc := range []struct {
		name string
		rec  func() *DDLRecord
	}{{"rebuild", addColumn}, {"streamed", addIndex}} {
		t.Run(tc.name, func(t *testing.T) {
			cat, def := alterRig(t, 20, true)
			err := ApplyDDL(cat, tc.rec())
			var se *storage.StoreError
			if !errors.As(err, &se) {
				t.Fatalf("replay over a damaged store: %v, want a *storage.StoreError", err)
			}
			if got := cat.Table("test", "t"); got == nil || got.Def != def {
				t.Fatalf("the failed ALTER switched the table")
			}
			t.Log(err)

			cat, def = alterRig(t, 20, false)
			if err := ApplyDDL(cat, tc.rec()); err != nil {
				t.Fatalf("replay over an undamaged store: %v", err)
			}
			nt := cat.Table("test", "t")
			if nt == nil || nt.Def == def || len(nt.CommittedRows(storage.Newest)) != 20 {
				t.Fatalf("the ALTER did not replay")
			}
		})
	}
	// ADD COLUMN d DATETIME NOT NULL over rows: NULL into it cannot be
	// stored (plrun has no zero date); the statement failed the same way.
	cat, def := alterRig(t, 20, false)
	rec := addColumn()
	rec.Def.Columns[2] = storage.Column{Name: "d", Type: types.ColType{Base: types.TDatetime}, NotNull: true}
	rec.Shape.Fill[2] = types.Null
	if err := ApplyDDL(cat, rec); err != nil {
		t.Fatalf("a conversion failure failed the replay: %v", err)
	}
	if got := cat.Table("test", "t"); got == nil || got.Def != def {
		t.Fatalf("the ALTER whose rows do not convert switched the table")
	}
}
