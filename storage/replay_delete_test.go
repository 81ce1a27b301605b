package storage

import (
	"testing"

	"github.com/plrun/plrun/storage/kv"
	"github.com/plrun/plrun/types"
)

// TestReplayedDeleteHidesStoredRow: replay (Apply) of a deletion the
// store has not applied yet leaves a tombstone that hides the stored row
// from readers and from a rebuild's copy.
func TestReplayedDeleteHidesStoredRow(t *testing.T) {
	s, err := kv.Open(t.TempDir(), kv.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	def := &TableDef{ID: 5, Name: "t", Columns: []Column{intCol("id"), intCol("v")}, Indexes: []IndexDef{{Name: "PRIMARY", Cols: []int{0}, Primary: true}}}
	tb := NewTable(def)
	tb.attach(s, 5, false)
	pk := []types.Value{types.IntValue(1)}
	b := s.NewBatch()
	if _, err := tb.ApplyToStore(b, pk, []types.Value{types.IntValue(1), types.IntValue(10)}, 3); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(3); err != nil {
		t.Fatal(err)
	}
	tb.Apply(KeyOf(pk), pk, nil, 4) // replay of a delete the store has not applied
	if r := tb.Lookup(KeyOf(pk)); r != nil && tb.Read(r, 0, Newest).Vals != nil {
		t.Fatalf("after a replayed delete the stored row still reads: %v", tb.Read(r, 0, Newest).Vals)
	}
}
