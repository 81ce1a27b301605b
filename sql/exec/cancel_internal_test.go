package exec

import (
	"context"
	"errors"
	"testing"

	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/query"
	"github.com/plrun/plrun/types"
)

// cancelledCtx is a Ctx whose statement has been cancelled.
func cancelledCtx() *expr.Ctx {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return &expr.Ctx{Context: ctx}
}

func intRows(n int) []query.Row {
	out := make([]query.Row, n)
	for i := range out {
		v := types.IntValue(int64((i * 7919) % n))
		out[i] = query.Row{Vals: []types.Value{v}, Keys: []types.Value{v}}
	}
	return out
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
