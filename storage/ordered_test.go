package storage

import (
	"sort"
	"testing"

	"github.com/plrun/plrun/types"
)

func ordTable() *Table {
	def := &TableDef{Name: "ev", Columns: []Column{
		{Name: "id", Type: types.ColType{Base: types.TInt}},
		{Name: "kind", Type: types.ColType{Base: types.TVarchar, Length: 10}},
		{Name: "at", Type: types.ColType{Base: types.TInt}},
	}, Indexes: []IndexDef{{Name: "PRIMARY", Cols: []int{0}, Primary: true}, {Name: "kind_at", Cols: []int{1, 2}}}}
	return NewTable(def)
}

func putEvent(t *Table, id int64, kind any, at any) {
	pk := []types.Value{types.IntValue(id)}
	vals := []types.Value{pk[0], types.Null, types.Null}
	if s, ok := kind.(string); ok {
		vals[1] = types.StringValue(s)
	}
	if n, ok := at.(int); ok {
		vals[2] = types.IntValue(int64(n))
	}
	t.Apply(KeyOf(pk), pk, vals, 1)
}

func ids(rows []*Row) []int64 {
	var out []int64
	for _, r := range rows {
		out = append(out, r.PK[0].I)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func same(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestIndexRange: prefix lookups and ranges find every row whose values
// match, NULLs included in the tree (but never equal), and updates and
// deletions drop the entries no version holds.
func TestIndexRange(t *testing.T) {
	tb := ordTable()
	putEvent(tb, 1, "open", 10)
	putEvent(tb, 2, "open", 20)
	putEvent(tb, 3, "close", 15)
	putEvent(tb, 4, "OPEN", 30)
	putEvent(tb, 5, nil, 12)
	putEvent(tb, 6, "open", nil)
	v := func(n int64) *types.Value { x := types.IntValue(n); return &x }
	open := []types.Value{types.StringValue("open")}
	for _, c := range []struct {
		name   string
		eq     []types.Value
		lo, hi *types.Value
		want   []int64
	}{
		{"prefix", open, nil, nil, []int64{1, 2, 4, 6}},
		{"prefix and range", open, v(15), v(30), []int64{2, 4}},
		{"prefix and low bound", open, v(20), nil, []int64{2, 4}},
		{"prefix and high bound", open, nil, v(10), []int64{1, 6}}, // the NULL sorts first; the caller's filter drops it
		{"no match", []types.Value{types.StringValue("none")}, nil, nil, nil},
		{"whole key", []types.Value{types.StringValue("close"), types.IntValue(15)}, nil, nil, []int64{3}},
		{"range on the first column", nil, nil, nil, []int64{1, 2, 3, 4, 5, 6}},
	} {
		if got := ids(tb.IndexRange(1, c.eq, c.lo, c.hi)); !same(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	putEvent(tb, 2, "close", 20) // moves out of 'open'
	tb.Apply(KeyOf([]types.Value{types.IntValue(4)}), []types.Value{types.IntValue(4)}, nil, 2)
	if got := ids(tb.IndexRange(1, open, nil, nil)); !same(got, []int64{1, 6}) {
		t.Errorf("after update and delete: %v, want [1 6]", got)
	}
	if got := ids(tb.IndexRange(1, []types.Value{types.StringValue("close")}, nil, nil)); !same(got, []int64{2, 3}) {
		t.Errorf("close after update: %v, want [2 3]", got)
	}
	if n := tb.ordered[1].Len(); n != 5 {
		t.Errorf("%d entries, want 5 (one per live row)", n)
	}
}
