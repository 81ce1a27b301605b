package exec

import (
	"context"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sql/query"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

// Correlated reports whether the (sub)query names an enclosing query's
// column (Subquery).
func (pl *SelectPlan) Correlated() bool { return pl.correlated }

// ColumnTypes are the types of the select list (Subquery).
func (pl *SelectPlan) ColumnTypes() []types.ColType { return query.ColumnTypes(pl.Cols) }

// Run executes the subquery in the enclosing statement (Subquery).
func (pl *SelectPlan) Run(c *expr.Ctx, outer []types.Value) ([][]types.Value, error) {
	res, err := pl.Exec(query.RunCtxOf(c, outer))
	if err != nil {
		return nil, err
	}
	return res.Rows, nil
}

func (s *State) ExecSelect(ctx context.Context, x *txn.Txn, p *parse.Stmt, n *ast.SelectStmt, args []types.Value) (*Result, error) {
	return s.ExecQuery(ctx, x, p, n, args)
}

// run executes a (sub)query in rc.
func (pl *SelectPlan) Exec(rc query.RunCtx) (*Result, error) {
	var err error
	ctx, x := rc.Ctx, rc.Txn
	ec := rc.NewCtx()
	// What this execution buffers is charged while it runs; the rows it
	// returns are the caller's to account for.
	defer ec.Mem.Close()
	// CTEs, then derived tables (which may read them), are materialized
	// first, into this execution's own tables.
	if err := pl.materialize(ec); err != nil {
		return nil, err
	}
	out, streamed, err := pl.streamGroups(x, ec)
	if err != nil {
		return nil, err
	}
	if !streamed {
		if out, err = pl.resultRows(ctx, x, ec); err != nil {
			return nil, err
		}
	}
	if pl.distinct {
		if out, err = distinctRows(ec, out); err != nil {
			return nil, err
		}
	}
	if len(pl.order) > 0 {
		if err := query.SortStable(ec, out, query.OrderLess(pl.order)); err != nil {
			return nil, err
		}
	}
	found := len(out)
	if out, err = pl.applyLimit(ec, out); err != nil {
		return nil, err
	}
	res := &Result{Columns: append([]Column(nil), pl.Cols...), Rows: make([][]types.Value, len(out))}
	for i, r := range out {
		res.Rows[i] = r.Vals
	}
	query.FixColumnTypes(res)
	res.Notes = *ec.Notes
	res.Warnings = uint16(len(res.Notes))
	// FOUND_ROWS(): the rows before LIMIT under SQL_CALC_FOUND_ROWS, else
	// the rows returned, as MySQL counts them.
	res.FoundRows = int64(len(res.Rows))
	if pl.calcFoundRows {
		res.FoundRows = int64(found)
	}
	return res, nil
}

// streamGroups is an aggregate over one table's scan, fed the rows as
// they are read (Access.Stream): it holds its groups, not the table.
// streamed is false where the plan is not that or the access path
// collects its rows anyway (resultRows then does it all).
func (pl *SelectPlan) streamGroups(x *txn.Txn, ec *expr.Ctx) (out []query.Row, streamed bool, err error) {
	if pl.t == nil || pl.join != nil || !pl.grouped || len(pl.windows.Funcs) > 0 || pl.forUpdate {
		return nil, false, nil
	}
	gr := pl.newGrouping()
	streamed, err = pl.acc.Stream(x, ec, func(vals []types.Value) error { return gr.add(ec, vals) })
	if err != nil || !streamed {
		return nil, streamed, err
	}
	ctxs, err := gr.finish(ec)
	if err != nil {
		return nil, true, err
	}
	out, err = pl.projectContexts(ec, ctxs)
	return out, true, err
}

// resultRows reads the source rows (a join's, one table's, or the one
// row of a SELECT without FROM) and makes the result rows of them:
// windows, groups or the select list.
func (pl *SelectPlan) resultRows(ctx context.Context, x *txn.Txn, ec *expr.Ctx) ([]query.Row, error) {
	var rows [][]types.Value
	var err error
	if pl.join != nil {
		if rows, err = pl.join.Rows(ctx, x, ec); err != nil {
			return nil, err
		}
	} else if pl.t != nil {
		// FOR UPDATE locks, in a transaction or under autocommit alike
		// (where the statement's commit releases them).
		refs, err := pl.acc.Find(ctx, x, ec, pl.forUpdate)
		if err != nil {
			return nil, err
		}
		if err := ec.Mem.Grow(int64(len(refs)) * expr.RowBytes); err != nil {
			return nil, err
		}
		rows = make([][]types.Value, len(refs))
		for i, r := range refs {
			rows[i] = r.Vals
		}
	} else {
		ok := true
		if pl.acc != nil && pl.acc.Filter != nil {
			if ok, err = expr.EvalBool(pl.acc.Filter, ec); err != nil {
				return nil, err
			}
		}
		if ok {
			rows = [][]types.Value{nil}
		}
	}
	switch {
	case len(pl.windows.Funcs) > 0:
		return pl.runWindows(ec, rows)
	case pl.grouped:
		return pl.groupRows(ec, rows)
	default:
		return pl.projectRows(ec, rows)
	}
}

// applyLimit cuts out to LIMIT [offset,] count.
func (pl *SelectPlan) applyLimit(ec *expr.Ctx, out []query.Row) ([]query.Row, error) {
	return query.Limit(ec, pl.limit, pl.offset, out)
}

func (pl *SelectPlan) project(ec *expr.Ctx) (query.Row, error) {
	if err := ec.Poll(); err != nil {
		return query.Row{}, err
	}
	r := query.Row{Vals: make([]types.Value, len(pl.outs))}
	for i, o := range pl.outs {
		v, err := o.Expr.Fn(ec)
		if err != nil {
			return r, err
		}
		r.Vals[i] = v
	}
	if len(pl.order) > 0 {
		r.Keys = make([]types.Value, len(pl.order))
		for i, o := range pl.order {
			v, err := o.E.Fn(ec)
			if err != nil {
				return r, err
			}
			r.Keys[i] = v
		}
	}
	if err := ec.Mem.Grow(pl.projectedBytes(r)); err != nil {
		return r, err
	}
	return r, nil
}

// projectedBytes is what a result row adds to memory: its values, and the
// strings computed for it (a bare column's string is the table's own).
func (pl *SelectPlan) projectedBytes(r query.Row) int64 {
	n := int64(2*expr.RowBytes + expr.ValueBytes*(len(r.Vals)+len(r.Keys)))
	for i, o := range pl.outs {
		if o.Expr.Col < 0 {
			n += expr.ValuePayload(r.Vals[i])
		}
	}
	for i, o := range pl.order {
		if o.E.Col < 0 {
			n += expr.ValuePayload(r.Keys[i])
		}
	}
	return n
}

func (pl *SelectPlan) projectRows(ec *expr.Ctx, rows [][]types.Value) ([]query.Row, error) {
	out := make([]query.Row, 0, len(rows))
	for _, row := range rows {
		ec.Row = row
		r, err := pl.project(ec)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

func distinctRows(ec *expr.Ctx, in []query.Row) ([]query.Row, error) {
	seen := map[string]bool{}
	out := in[:0]
	for _, r := range in {
		if err := ec.Poll(); err != nil {
			return nil, err
		}
		var kb []byte
		for _, v := range r.Vals {
			kb = types.KeyString(kb, v)
		}
		if seen[string(kb)] {
			continue
		}
		if err := ec.Mem.Grow(int64(len(kb)) + expr.MapKeyBytes); err != nil {
			return nil, err
		}
		seen[string(kb)] = true
		out = append(out, r)
	}
	return out, nil
}
