package storage

import (
	"testing"

	"github.com/plrun/plrun/types"
)

func intCol(name string) Column {
	return Column{Name: name, Type: types.ColType{Base: types.TInt}}
}

func putVersion(t *Table, lsn uint64, vals ...int64) {
	row := make([]types.Value, len(vals))
	for i, v := range vals {
		row[i] = types.IntValue(v)
	}
	pk := []types.Value{row[0]}
	t.Apply(KeyOf(pk), pk, row, lsn)
}

func del(t *Table, lsn uint64, id int64) {
	pk := []types.Value{types.IntValue(id)}
	t.Apply(KeyOf(pk), pk, nil, lsn)
}

func rowsOf(t *Table) map[int64][]int64 {
	out := map[int64][]int64{}
	for _, r := range t.CommittedRows(Newest) {
		var vs []int64
		for _, v := range r.Vals {
			n, _ := v.ToInt64()
			vs = append(vs, n)
		}
		out[vs[0]] = vs
	}
	return out
}

// A rebuild copies the rows, then catches up with what was committed and
// deleted after its snapshot: the new table holds the old one's final
// rows, converted (here: a column added with fill 7).
func TestRebuildCatchUp(t *testing.T) {
	old := NewTable(&TableDef{ID: 1, Name: "t", Columns: []Column{intCol("id"), intCol("v")}, Indexes: []IndexDef{{Name: "PRIMARY", Cols: []int{0}, Primary: true, Unique: true}}})
	for i := int64(1); i <= 1500; i++ {
		putVersion(old, 10, i, i)
	}
	def := &TableDef{ID: 2, Name: "t", Columns: []Column{intCol("id"), intCol("v"), intCol("w")},
		Indexes: []IndexDef{{Name: "PRIMARY", Cols: []int{0}, Primary: true, Unique: true}, {Name: "iw", Cols: []int{1}}}}
	shape := &Reshape{Source: []int{0, 1, -1}, Fill: []types.Value{types.Null, types.Null, types.IntValue(7)}}
	b := NewRebuild(old, def, shape, 10)
	if err := b.Copy(); err != nil {
		t.Fatal(err)
	}
	putVersion(old, 11, 5, 5000) // updated after the copy
	putVersion(old, 12, 2000, 1) // inserted
	del(old, 13, 7)              // deleted (and purged: Apply drops the slot)
	if err := b.CatchUp(); err != nil {
		t.Fatal(err)
	}
	got := rowsOf(b.New)
	if len(got) != 1500 || got[5][1] != 5000 || got[2000][2] != 7 || got[7] != nil || got[1][2] != 7 {
		t.Fatalf("rebuilt table: %d rows, 5=%v 2000=%v 7=%v 1=%v", len(got), got[5], got[2000], got[7], got[1])
	}
	k, _ := b.New.IndexKey(1, []types.Value{types.Null, types.IntValue(5000)})
	if rs := b.New.IndexCandidates(1, k, []types.Value{types.IntValue(5000)}); len(rs) != 1 {
		t.Fatalf("index iw lists %d rows for v=5000, want 1", len(rs))
	}
	if _, _, dup := b.Duplicate(); dup || b.Rows() != 1500 {
		t.Fatalf("duplicate %v, rows %d", dup, b.Rows())
	}
}

// A new primary key over values two rows share is a duplicate, unless the
// rows stop sharing it before the switch.
func TestRebuildNewKeyDuplicate(t *testing.T) {
	old := NewTable(&TableDef{ID: 1, Name: "t", Columns: []Column{intCol("id"), intCol("v")}, Indexes: []IndexDef{{Name: "PRIMARY", Cols: []int{0}, Primary: true, Unique: true}}})
	putVersion(old, 10, 1, 100)
	putVersion(old, 10, 2, 100)
	putVersion(old, 10, 3, 300)
	def := &TableDef{ID: 2, Name: "t", Columns: []Column{intCol("id"), intCol("v")}, Indexes: []IndexDef{{Name: "PRIMARY", Cols: []int{1}, Primary: true, Unique: true}}}
	shape := &Reshape{Source: []int{0, 1}, Fill: []types.Value{types.Null, types.Null}}
	b := NewRebuild(old, def, shape, 10)
	if err := b.Copy(); err != nil {
		t.Fatal(err)
	}
	b.Finish()
	if _, vals, dup := b.Duplicate(); !dup || vals[1].String() != "100" {
		t.Fatalf("duplicate new key not found: %v %v", dup, vals)
	}
	b = NewRebuild(old, def, shape, 10)
	if err := b.Copy(); err != nil {
		t.Fatal(err)
	}
	putVersion(old, 12, 2, 200)
	if err := b.CatchUp(); err != nil {
		t.Fatal(err)
	}
	b.Finish()
	if _, _, dup := b.Duplicate(); dup {
		t.Fatal("duplicate reported after the rows stopped sharing the key")
	}
	if got := rowsOf(b.New); len(got) != 3 || got[2][1] != 200 {
		t.Fatalf("rekeyed table: %v", got)
	}
}
