package exec

import (
	"context"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

// Correlated reports whether the (sub)query names an enclosing query's
// column (Subquery).
func (pl *SelectPlan) Correlated() bool { return pl.correlated }

// ColumnTypes are the types of the select list (Subquery).
func (pl *SelectPlan) ColumnTypes() []types.ColType { return columnTypes(pl.Cols) }

func columnTypes(cols []Column) []types.ColType {
	out := make([]types.ColType, len(cols))
	for i, c := range cols {
		out[i] = c.Type
	}
	return out
}

// Run executes the subquery in the enclosing statement (Subquery).
func (pl *SelectPlan) Run(c *expr.Ctx, outer []types.Value) ([][]types.Value, error) {
	res, err := pl.run(runCtxOf(c, outer))
	if err != nil {
		return nil, err
	}
	return res.Rows, nil
}

// outRow is a result row and the context its ORDER BY keys evaluate in.
type outRow struct {
	vals []types.Value
	keys []types.Value
}

func (s *State) ExecSelect(ctx context.Context, x *txn.Txn, p *parse.Stmt, n *ast.SelectStmt, args []types.Value) (*Result, error) {
	return s.ExecQuery(ctx, x, p, n, args)
}

// run executes a (sub)query in rc.
func (pl *SelectPlan) run(rc runCtx) (*Result, error) {
	var err error
	ctx, x := rc.ctx, rc.x
	ec := &expr.Ctx{Env: rc.env, Args: rc.args, Context: ctx, Txn: x, Outer: rc.outer, Up: rc.up, Strict: rc.strict, Mem: expr.NewMemAccount(ctx), Notes: new([]Note), Tables: rc.binds}
	// What this execution buffers is charged while it runs; the rows it
	// returns are the caller's to account for.
	defer ec.Mem.Close()
	// CTEs, then derived tables (which may read them), are materialized
	// first, into this execution's own tables.
	if err := pl.materialize(ec); err != nil {
		return nil, err
	}
	var rows [][]types.Value
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
	var out []outRow
	if len(pl.windows.Funcs) > 0 {
		out, err = pl.runWindows(ec, rows)
	} else if pl.grouped {
		out, err = pl.groupRows(ec, rows)
	} else {
		out, err = pl.projectRows(ec, rows)
	}
	if err != nil {
		return nil, err
	}
	if pl.distinct {
		if out, err = distinctRows(ec, out); err != nil {
			return nil, err
		}
	}
	if len(pl.order) > 0 {
		if err := sortRowsStable(ec, out, orderLess(pl.order)); err != nil {
			return nil, err
		}
	}
	found := len(out)
	if out, err = pl.applyLimit(ec, out); err != nil {
		return nil, err
	}
	res := &Result{Columns: append([]Column(nil), pl.Cols...), Rows: make([][]types.Value, len(out))}
	for i, r := range out {
		res.Rows[i] = r.vals
	}
	fixColumnTypes(res)
	res.Notes = *ec.Notes
	res.Warnings = uint16(len(res.Notes))
	// FOUND_ROWS(): the rows before LIMIT under SQL_CALC_FOUND_ROWS, else
	// the rows returned, as MySQL counts them.
	res.foundRows = int64(len(res.Rows))
	if pl.calcFoundRows {
		res.foundRows = int64(found)
	}
	return res, nil
}

// applyLimit cuts out to LIMIT [offset,] count.
func (pl *SelectPlan) applyLimit(ec *expr.Ctx, out []outRow) ([]outRow, error) {
	return limitRows(ec, pl.limit, pl.offset, out)
}

// limitRows cuts out to LIMIT [offset,] count. Counts are unsigned and
// saturate (LIMIT 18446744073709551615, 1 is an empty set, not a panic).
func limitRows(ec *expr.Ctx, limitE, offsetE *expr.Expr, out []outRow) ([]outRow, error) {
	if limitE == nil {
		return out, nil
	}
	lv, err := limitE.Fn(ec)
	if err != nil {
		return nil, err
	}
	limit, ok := expr.RowCountArg(lv)
	offset := 0
	if ok && offsetE != nil {
		ov, err := offsetE.Fn(ec)
		if err != nil {
			return nil, err
		}
		offset, ok = expr.RowCountArg(ov)
	}
	if !ok {
		return nil, sqlerr.New(sqlerr.ErWrongArguments, "Incorrect arguments to EXECUTE")
	}
	if offset > len(out) {
		offset = len(out)
	}
	out = out[offset:]
	if limit < len(out) {
		out = out[:limit]
	}
	return out, nil
}

func (pl *SelectPlan) project(ec *expr.Ctx) (outRow, error) {
	if err := ec.Poll(); err != nil {
		return outRow{}, err
	}
	r := outRow{vals: make([]types.Value, len(pl.outs))}
	for i, o := range pl.outs {
		v, err := o.Expr.Fn(ec)
		if err != nil {
			return r, err
		}
		r.vals[i] = v
	}
	if len(pl.order) > 0 {
		r.keys = make([]types.Value, len(pl.order))
		for i, o := range pl.order {
			v, err := o.e.Fn(ec)
			if err != nil {
				return r, err
			}
			r.keys[i] = v
		}
	}
	if err := ec.Mem.Grow(pl.projectedBytes(r)); err != nil {
		return r, err
	}
	return r, nil
}

// projectedBytes is what a result row adds to memory: its values, and the
// strings computed for it (a bare column's string is the table's own).
func (pl *SelectPlan) projectedBytes(r outRow) int64 {
	n := int64(2*expr.RowBytes + expr.ValueBytes*(len(r.vals)+len(r.keys)))
	for i, o := range pl.outs {
		if o.Expr.Col < 0 {
			n += expr.ValuePayload(r.vals[i])
		}
	}
	for i, o := range pl.order {
		if o.e.Col < 0 {
			n += expr.ValuePayload(r.keys[i])
		}
	}
	return n
}

func (pl *SelectPlan) projectRows(ec *expr.Ctx, rows [][]types.Value) ([]outRow, error) {
	out := make([]outRow, 0, len(rows))
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

func distinctRows(ec *expr.Ctx, in []outRow) ([]outRow, error) {
	seen := map[string]bool{}
	out := in[:0]
	for _, r := range in {
		if err := ec.Poll(); err != nil {
			return nil, err
		}
		var kb []byte
		for _, v := range r.vals {
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

// fixColumnTypes gives columns whose type could not be inferred at plan
// time (placeholders, user variables) the type of their first value.
func fixColumnTypes(r *Result) {
	for i := range r.Columns {
		if r.Columns[i].Type.Base != 0 {
			continue
		}
		t := expr.TVarchar
		for _, row := range r.Rows {
			if !row[i].IsNull() {
				t = expr.TypeOfValue(row[i])
				break
			}
		}
		r.Columns[i].Type = t
	}
}
