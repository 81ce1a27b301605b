package plan

import (
	"testing"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
	_ "github.com/pingcap/tidb/pkg/parser/test_driver"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
)

func evTable() *storage.Table {
	return storage.NewTable(&storage.TableDef{DB: "d", Name: "ev", Columns: []storage.Column{
		{Name: "id", Type: types.ColType{Base: types.TInt}},
		{Name: "kind", Type: types.ColType{Base: types.TVarchar, Length: 10}},
		{Name: "at", Type: types.ColType{Base: types.TInt}},
	}, Indexes: []storage.IndexDef{{Name: "PRIMARY", Cols: []int{0}, Primary: true}, {Name: "kind_at", Cols: []int{1, 2}}, {Name: "at_only", Cols: []int{2}}}})
}

func where(t *testing.T, q string) ast.ExprNode {
	st, err := parser.New().ParseOneStmt(q, "", "")
	if err != nil {
		t.Fatal(err)
	}
	return st.(*ast.SelectStmt).Where
}

// TestChooseIndexPrefix: the index whose leading columns the WHERE gives
// most of is read by that prefix, with a range on the next column.
func TestChooseIndexPrefix(t *testing.T) {
	tb := evTable()
	for _, c := range []struct {
		q          string
		idx, eq    int
		rng, pkRng bool
	}{
		{"SELECT * FROM ev WHERE kind = 'open'", 1, 1, false, false},
		{"SELECT * FROM ev WHERE kind = 'open' AND at > 5", 1, 1, true, false},
		{"SELECT * FROM ev WHERE at BETWEEN 1 AND 5", 2, 0, true, false},
		{"SELECT * FROM ev WHERE id > 3 AND at < 5", -1, 0, false, true}, // a range on the primary key wins over a range alone
		{"SELECT * FROM ev WHERE id = 3 AND kind = 'x'", -1, 0, false, false},
	} {
		a, err := ChooseAccess(&expr.Scope{DB: "d", Table: tb, Alias: "ev"}, tb, where(t, c.q))
		if err != nil {
			t.Fatal(err)
		}
		if a.IdxScan != c.idx || len(a.IdxEq) != c.eq || (a.IdxLo != nil || a.IdxHi != nil) != c.rng || (a.Lo != nil || a.Hi != nil) != c.pkRng {
			t.Errorf("%s: index %d, %d equalities, range %v, primary range %v", c.q, a.IdxScan, len(a.IdxEq), a.IdxLo != nil || a.IdxHi != nil, a.Lo != nil || a.Hi != nil)
		}
	}
}

// TestServeOrder: ORDER BY ... LIMIT is read in an index's order when the
// access path allows it.
func TestServeOrder(t *testing.T) {
	tb := evTable()
	lim := expr.ConstExpr(types.IntValue(2), expr.TBigInt)
	for _, c := range []struct {
		q    string
		cols []int
		idx  int // -1 primary, -2 not served
	}{
		{"SELECT * FROM ev", []int{2}, 2},
		{"SELECT * FROM ev", []int{1, 2}, 1},
		{"SELECT * FROM ev", []int{0}, -1},
		{"SELECT * FROM ev WHERE id > 4", []int{0}, -1},
		{"SELECT * FROM ev WHERE kind = 'open'", []int{2}, 1},
		{"SELECT * FROM ev WHERE kind = 'open'", []int{1, 2}, 1},
		{"SELECT * FROM ev WHERE kind = 'open' AND at > 3", []int{2}, 1},
		{"SELECT * FROM ev WHERE id = 4", []int{2}, -2},
		{"SELECT * FROM ev", []int{2, 1}, -2},
		{"SELECT * FROM ev WHERE id > 4", []int{2}, -2},
	} {
		a, err := ChooseAccess(&expr.Scope{DB: "d", Table: tb, Alias: "ev"}, tb, where(t, c.q))
		if err != nil {
			t.Fatal(err)
		}
		served := a.ServeOrder(c.cols, false, lim, nil)
		got := -2
		if served {
			got = a.order.idx
		}
		if got != c.idx {
			t.Errorf("%s ORDER BY %v: index %d, want %d", c.q, c.cols, got, c.idx)
		}
	}
}
