package exec

import (
	"github.com/plrun/plrun/sql/aggregate"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/query"
	"github.com/plrun/plrun/types"
)

// group is one GROUP BY bucket.
type group struct {
	first []types.Value
	accs  []aggregate.Acc
}

func (pl *SelectPlan) groupRows(ec *expr.Ctx, rows [][]types.Value) ([]query.Row, error) {
	ctxs, err := pl.groupContexts(ec, rows)
	if err != nil {
		return nil, err
	}
	return pl.projectContexts(ec, ctxs)
}

// groupContexts groups rows by GROUP BY, computes the aggregates and
// keeps the groups HAVING accepts, in order of their first row.
func (pl *SelectPlan) groupContexts(ec *expr.Ctx, rows [][]types.Value) ([]evalCtx, error) {
	gr := pl.newGrouping()
	for _, row := range rows {
		if err := gr.add(ec, row); err != nil {
			return nil, err
		}
	}
	return gr.finish(ec)
}

// grouping is an aggregation under way: rows are added one at a time
// (from a list, or streamed from a scan: Access.Stream), so it holds the
// groups and their accumulators, not the rows.
type grouping struct {
	pl     *SelectPlan
	order  []string
	groups map[string]*group
	kb     []byte
}

func (pl *SelectPlan) newGrouping() *grouping {
	return &grouping{pl: pl, groups: map[string]*group{}}
}

// add adds one source row to its group.
func (gr *grouping) add(ec *expr.Ctx, row []types.Value) error {
	pl := gr.pl
	if err := ec.Poll(); err != nil {
		return err
	}
	ec.Row = row
	gr.kb = gr.kb[:0]
	for _, g := range pl.groupBy {
		v, err := g.Fn(ec)
		if err != nil {
			return err
		}
		gr.kb = types.KeyString(gr.kb, v)
	}
	g := gr.groups[string(gr.kb)]
	if g == nil {
		k := string(gr.kb)
		if err := ec.Mem.Grow(int64(len(k)) + expr.MapKeyBytes + int64(len(pl.aggs.Specs))*2*expr.ValueBytes); err != nil {
			return err
		}
		g = &group{first: row, accs: make([]aggregate.Acc, len(pl.aggs.Specs))}
		gr.groups[k] = g
		gr.order = append(gr.order, k)
	}
	for i := range pl.aggs.Specs {
		if err := g.accs[i].Add(&pl.aggs.Specs[i], ec, ec.Mem); err != nil {
			return err
		}
	}
	return nil
}

// finish computes the aggregates and keeps the groups HAVING accepts, in
// order of their first row.
func (gr *grouping) finish(ec *expr.Ctx) ([]evalCtx, error) {
	pl, groups, order := gr.pl, gr.groups, gr.order
	if len(groups) == 0 && len(pl.groupBy) == 0 {
		// An aggregate over no rows still returns one row.
		groups[""] = &group{accs: make([]aggregate.Acc, len(pl.aggs.Specs))}
		order = append(order, "")
	}
	out := make([]evalCtx, 0, len(order))
	for _, k := range order {
		g := groups[k]
		row := g.first
		if row == nil && pl.join != nil {
			row = make([]types.Value, pl.join.Width)
		} else if row == nil && pl.t != nil {
			row = make([]types.Value, len(pl.t.Def.Columns))
		}
		aggs := make([]types.Value, len(pl.aggs.Specs))
		for i := range pl.aggs.Specs {
			aggs[i] = g.accs[i].Result(&pl.aggs.Specs[i], ec)
		}
		ec.Row, ec.Aggs = row, aggs
		if pl.having != nil {
			ok, err := expr.EvalBool(pl.having, ec)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
		}
		out = append(out, evalCtx{row: row, aggs: aggs})
	}
	ec.Aggs = nil
	return out, nil
}

// evalCtx is what a result row's expressions read: a source row, and a
// group's aggregate values.
type evalCtx struct {
	row  []types.Value
	aggs []types.Value
}

// projectContexts projects each row (or group) in order.
func (pl *SelectPlan) projectContexts(ec *expr.Ctx, ctxs []evalCtx) ([]query.Row, error) {
	out := make([]query.Row, 0, len(ctxs))
	for _, c := range ctxs {
		ec.Row, ec.Aggs = c.row, c.aggs
		r, err := pl.project(ec)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	ec.Aggs = nil
	return out, nil
}
