package exec

import (
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/query"
	"github.com/plrun/plrun/types"
)

// windowRows computes the window functions over ctxs (sql/window) and
// projects the rows in the order the last window's sort left them.
func (pl *SelectPlan) windowRows(ec *expr.Ctx, ctxs []evalCtx) ([]query.Row, error) {
	wins, order, err := pl.windows.Values(ec, len(ctxs), func(i int) { ec.Row, ec.Aggs = ctxs[i].row, ctxs[i].aggs })
	if err != nil {
		return nil, err
	}
	out := make([]query.Row, 0, len(ctxs))
	for _, i := range order {
		ec.Row, ec.Aggs, ec.Wins = ctxs[i].row, ctxs[i].aggs, wins[i]
		r, err := pl.project(ec)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	ec.Aggs, ec.Wins = nil, nil
	return out, nil
}

// runWindows is the rows (or groups) with their window values, projected.
func (pl *SelectPlan) runWindows(ec *expr.Ctx, rows [][]types.Value) ([]query.Row, error) {
	var ctxs []evalCtx
	if pl.grouped {
		var err error
		if ctxs, err = pl.groupContexts(ec, rows); err != nil {
			return nil, err
		}
	} else {
		ctxs = make([]evalCtx, len(rows))
		for i, r := range rows {
			ctxs[i].row = r
		}
	}
	return pl.windowRows(ec, ctxs)
}
