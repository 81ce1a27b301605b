package exec

import (
	"context"
	"errors"
	"testing"

	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/types"
)

// cancelledCtx is a Ctx whose statement has been cancelled.
func cancelledCtx() *expr.Ctx {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return &expr.Ctx{Context: ctx}
}

func intRows(n int) []outRow {
	out := make([]outRow, n)
	for i := range out {
		v := types.IntValue(int64((i * 7919) % n))
		out[i] = outRow{vals: []types.Value{v}, keys: []types.Value{v}}
	}
	return out
}

func byKey(a, b outRow) bool { return types.Compare(a.keys[0], b.keys[0]) < 0 }

// TestSortStopsWhenCancelled: ORDER BY's sort looks at the statement's
// context as it goes (sort.SliceStable, used before, could not be
// stopped), and still sorts stably when it is not cancelled.
func TestSortStopsWhenCancelled(t *testing.T) {
	if err := sortRowsStable(cancelledCtx(), intRows(100000), byKey); !errors.Is(err, context.Canceled) {
		t.Fatalf("sort of a cancelled statement: %v, want context.Canceled", err)
	}
	rows := intRows(10007)
	for i := range rows {
		rows[i].vals = []types.Value{types.IntValue(int64(i))} // original position
		rows[i].keys = []types.Value{types.IntValue(int64(i % 13))}
	}
	if err := sortRowsStable(&expr.Ctx{Context: context.Background()}, rows, byKey); err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(rows); i++ {
		a, b := rows[i-1], rows[i]
		if c := types.Compare(a.keys[0], b.keys[0]); c > 0 || (c == 0 && a.vals[0].I > b.vals[0].I) {
			t.Fatalf("rows %d and %d out of (stable) order: %v %v", i-1, i, a, b)
		}
	}
}

// TestRowLoopsStopWhenCancelled: DISTINCT, GROUP BY and projection stop
// on a cancelled statement instead of finishing their rows.
func TestRowLoopsStopWhenCancelled(t *testing.T) {
	if _, err := distinctRows(cancelledCtx(), intRows(10000)); !errors.Is(err, context.Canceled) {
		t.Errorf("DISTINCT: %v, want context.Canceled", err)
	}
	pl := &SelectPlan{outs: []expr.OutputCol{{Name: "a", Expr: expr.ConstExpr(types.IntValue(1), expr.TBigInt)}}}
	rows := make([][]types.Value, 10000)
	if _, err := pl.projectRows(cancelledCtx(), rows); !errors.Is(err, context.Canceled) {
		t.Errorf("projection: %v, want context.Canceled", err)
	}
	pl.groupBy = []*expr.Expr{expr.ConstExpr(types.IntValue(1), expr.TBigInt)}
	if _, err := pl.groupRows(cancelledCtx(), rows); !errors.Is(err, context.Canceled) {
		t.Errorf("GROUP BY: %v, want context.Canceled", err)
	}
}
