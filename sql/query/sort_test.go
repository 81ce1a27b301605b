package query

import (
	"context"
	"errors"
	"testing"

	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/types"
)

func intRows(n int) []Row {
	out := make([]Row, n)
	for i := range out {
		v := types.IntValue(int64((i * 7919) % n))
		out[i] = Row{Vals: []types.Value{v}, Keys: []types.Value{v}}
	}
	return out
}

func byKey(a, b Row) bool { return types.Compare(a.Keys[0], b.Keys[0]) < 0 }

// TestSortStopsWhenCancelled: ORDER BY's sort looks at the statement's
// context as it goes (sort.SliceStable, used before, could not be
// stopped), and still sorts stably when it is not cancelled.
func TestSortStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := SortStable(&expr.Ctx{Context: ctx}, intRows(100000), byKey); !errors.Is(err, context.Canceled) {
		t.Fatalf("sort of a cancelled statement: %v, want context.Canceled", err)
	}
	rows := intRows(10007)
	for i := range rows {
		rows[i].Vals = []types.Value{types.IntValue(int64(i))} // original position
		rows[i].Keys = []types.Value{types.IntValue(int64(i % 13))}
	}
	if err := SortStable(&expr.Ctx{Context: context.Background()}, rows, byKey); err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(rows); i++ {
		a, b := rows[i-1], rows[i]
		if c := types.Compare(a.Keys[0], b.Keys[0]); c > 0 || (c == 0 && a.Vals[0].I > b.Vals[0].I) {
			t.Fatalf("rows %d and %d out of (stable) order: %v %v", i-1, i, a, b)
		}
	}
}
