package compose

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/query"
	"github.com/plrun/plrun/types"
)

// run executes the set operation: each operand once, combined bottom up.
// Rows come out in the order MariaDB's temporary table gives them: UNION
// ALL concatenates, the DISTINCT forms keep each row's first place, and
// INTERSECT ALL / EXCEPT ALL list every kept row once, then the second
// copies, and so on.
func (sp *SetOp) Exec(rc query.RunCtx) (*query.Result, error) {
	ec := &expr.Ctx{Env: rc.Env, Args: rc.Args, Context: rc.Ctx, Txn: rc.Txn, Outer: rc.Outer, Strict: rc.Strict, Mem: expr.NewMemAccount(rc.Ctx), Notes: new([]query.Note), Tables: rc.Binds}
	defer ec.Mem.Close()
	if err := materializeCTEs(ec, sp.ctes); err != nil {
		return nil, err
	}
	rc.Binds = ec.Tables
	rows, err := sp.eval(rc, ec, sp.root)
	if err != nil {
		return nil, err
	}
	out := make([]query.Row, len(rows))
	for i, r := range rows {
		out[i].Vals = r
		if len(sp.order) > 0 {
			ec.Row = r
			out[i].Keys = make([]types.Value, len(sp.order))
			for k, o := range sp.order {
				if out[i].Keys[k], err = o.E.Fn(ec); err != nil {
					return nil, err
				}
			}
		}
	}
	if len(sp.order) > 0 {
		if err := query.SortStable(ec, out, query.OrderLess(sp.order)); err != nil {
			return nil, err
		}
	}
	found := len(out)
	if out, err = query.Limit(ec, sp.limit, sp.offset, out); err != nil {
		return nil, err
	}
	res := &query.Result{Columns: append([]query.Column(nil), sp.Cols...), Rows: make([][]types.Value, len(out))}
	for i, r := range out {
		res.Rows[i] = r.Vals
	}
	query.FixColumnTypes(res)
	res.Notes = *ec.Notes
	res.Warnings = uint16(len(res.Notes))
	// FOUND_ROWS() after a set operation counts the rows before its own
	// LIMIT when MariaDB's temporary table holds them all (a DISTINCT
	// UNION, INTERSECT, EXCEPT), and the rows returned after a UNION ALL,
	// which MariaDB streams (SQL_CALC_FOUND_ROWS or not).
	res.FoundRows = int64(found)
	if sp.root.leaf != nil || sp.root.op == ast.UnionAll {
		res.FoundRows = int64(len(res.Rows))
	}
	return res, nil
}

// eval computes a node's rows, conformed to the result column types (so
// 1 and 1.0 are the same row).
func (sp *SetOp) eval(rc query.RunCtx, ec *expr.Ctx, n *setNode) ([][]types.Value, error) {
	if n.leaf != nil {
		res, err := n.leaf.Exec(rc)
		if err != nil {
			return nil, err
		}
		*ec.Notes = append(*ec.Notes, res.Notes...)
		for _, r := range res.Rows {
			for i := range r {
				r[i] = expr.Conform(r[i], sp.Cols[i].Type)
			}
		}
		return res.Rows, ec.Mem.Grow(query.RowsBytes(res.Rows))
	}
	l, err := sp.eval(rc, ec, n.l)
	if err != nil {
		return nil, err
	}
	r, err := sp.eval(rc, ec, n.r)
	if err != nil {
		return nil, err
	}
	switch n.op {
	case ast.UnionAll:
		return append(l, r...), nil
	case ast.Union:
		return distinctValues(ec, append(l, r...))
	}
	return combineCounted(ec, n.op, l, r)
}

// distinctValues keeps the first of each equal row.
func distinctValues(ec *expr.Ctx, rows [][]types.Value) ([][]types.Value, error) {
	seen := map[string]bool{}
	out := rows[:0:0]
	for _, r := range rows {
		if err := ec.Poll(); err != nil {
			return nil, err
		}
		k := query.RowKey(r)
		if seen[k] {
			continue
		}
		if err := ec.Mem.Grow(int64(len(k)) + expr.MapKeyBytes); err != nil {
			return nil, err
		}
		seen[k] = true
		out = append(out, r)
	}
	return out, nil
}

// combineCounted is INTERSECT and EXCEPT, DISTINCT or ALL: how many
// copies of each left row remain, listed in rounds.
func combineCounted(ec *expr.Ctx, op ast.SetOprType, l, r [][]types.Value) ([][]types.Value, error) {
	type entry struct {
		row  []types.Value
		left int
	}
	var order []string
	entries := map[string]*entry{}
	for _, row := range l {
		if err := ec.Poll(); err != nil {
			return nil, err
		}
		k := query.RowKey(row)
		e := entries[k]
		if e == nil {
			if err := ec.Mem.Grow(int64(len(k)) + expr.MapKeyBytes); err != nil {
				return nil, err
			}
			e = &entry{row: row}
			entries[k] = e
			order = append(order, k)
		}
		e.left++
	}
	right := map[string]int{}
	for _, row := range r {
		if err := ec.Poll(); err != nil {
			return nil, err
		}
		k := query.RowKey(row)
		if entries[k] != nil {
			right[k]++
		}
	}
	keep := func(k string) int {
		e := entries[k]
		switch op {
		case ast.Intersect:
			return min(1, right[k])
		case ast.IntersectAll:
			return min(e.left, right[k])
		case ast.Except:
			if right[k] > 0 {
				return 0
			}
			return 1
		}
		return max(0, e.left-right[k]) // EXCEPT ALL
	}
	counts := make([]int, len(order))
	most := 0
	for i, k := range order {
		counts[i] = keep(k)
		most = max(most, counts[i])
	}
	var out [][]types.Value
	for round := 1; round <= most; round++ {
		for i, k := range order {
			if counts[i] >= round {
				out = append(out, entries[k].row)
			}
		}
	}
	return out, nil
}
