package plan

import (
	"context"

	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

// passes evaluates conditions on the current row; NULL is false.
func passes(conds []*expr.Expr, ec *expr.Ctx) (bool, error) {
	for _, c := range conds {
		if ok, err := expr.EvalBool(c, ec); err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

// currentOrder is the order to run with: the chosen one, or a new one
// when the tables (for a derived table, the rows ec binds to it; ec may be
// nil) have changed size enough since.
func (jp *Join) currentOrder(ec *expr.Ctx) *joinOrder {
	o := jp.order.Load()
	tables := jp.boundTables(ec)
	sizes := make([]int, len(tables))
	for i, t := range tables {
		sizes[i] = t.Len()
	}
	if o.stale(sizes) {
		o = jp.chooseOrder(tables)
		jp.order.Store(o)
	}
	return o
}

// boundTables are the join's tables as ec binds them.
func (jp *Join) boundTables(ec *expr.Ctx) []*storage.Table {
	out := make([]*storage.Table, len(jp.Tables))
	for i, jt := range jp.Tables {
		out[i] = jt.Table
		if ec != nil {
			out[i] = ec.TableOf(jt.Table)
		}
	}
	return out
}

// joinRun is one execution's state: each table's rows, read once per
// statement when a step scans or hashes them.
type joinRun struct {
	x      *txn.Txn
	ec     *expr.Ctx
	width  int
	scans  [][][]types.Value
	hashes []map[string][][]types.Value
}

// Rows runs the joins: every combined row that satisfies the ON
// conditions and the WHERE clause.
func (jp *Join) Rows(ctx context.Context, x *txn.Txn, ec *expr.Ctx) ([][]types.Value, error) {
	o := jp.currentOrder(ec)
	var out [][]types.Value
	row := make([]types.Value, jp.Width)
	run := &joinRun{x: x, ec: ec, width: jp.Width, scans: make([][][]types.Value, len(jp.Tables)), hashes: make([]map[string][][]types.Value, len(jp.Tables))}
	// matched[g]: some row of outer join g's side passed its ON, for the
	// current row of the tables before the group.
	matched := make([]bool, len(jp.groups))
	lastOf := make([]int, len(jp.groups))
	for k, st := range o.steps {
		if st.last {
			lastOf[st.group] = k
		}
	}
	var level func(k int) error
	level = func(k int) error {
		if err := ec.Poll(); err != nil {
			return err
		}
		if k == len(o.steps) {
			ec.Row = row
			if ok, err := passes(jp.rest, ec); err != nil || !ok {
				return err
			}
			// The copy shares the tables' strings: only its values count.
			if err := ec.Mem.Grow(expr.RowBytes + expr.ValueBytes*int64(len(row))); err != nil {
				return err
			}
			out = append(out, append([]types.Value(nil), row...))
			return nil
		}
		st := &o.steps[k]
		jt := jp.Tables[st.t]
		n := len(jt.Table.Def.Columns)
		if st.first {
			matched[st.group] = false
		}
		try := func(vals []types.Value) error {
			copy(row[jt.Off:jt.Off+n], vals)
			ec.Row = row
			if ok, err := passes(st.gates, ec); err != nil || !ok {
				return err
			}
			if st.last {
				matched[st.group] = true
			}
			if ok, err := passes(st.filters, ec); err != nil || !ok {
				return err
			}
			return level(k + 1)
		}
		if k == 0 && st.access == accessScan {
			// The first table is read once: row by row, never held.
			if err := run.scanLocal(ec.TableOf(jt.Table), st, jt.Off, try); err != nil {
				return err
			}
		} else {
			cands, err := run.candidates(jt, st, row)
			if err != nil {
				return err
			}
			for _, vals := range cands {
				if err := try(vals); err != nil {
					return err
				}
			}
		}
		if st.first && !matched[st.group] {
			// No row of the group matched: it goes on as NULLs, checked
			// against what its last step checks beyond the ON.
			for i, t := range jp.Tables {
				if st.members.has(i) {
					for c := t.Off; c < t.Off+len(t.Table.Def.Columns); c++ {
						row[c] = types.Null
					}
				}
			}
			end := lastOf[st.group]
			ec.Row = row
			if ok, err := passes(o.steps[end].filters, ec); err != nil || !ok {
				return err
			}
			return level(end + 1)
		}
		return nil
	}
	ec.Row = row
	if ok, err := passes(jp.pre, ec); err != nil || !ok {
		return nil, err
	}
	if err := level(0); err != nil {
		return nil, err
	}
	return out, nil
}

// all returns every row of the step's table the statement sees that
// passes its local conditions, read once: only those are kept.
func (r *joinRun) all(t *storage.Table, st *step, off int) ([][]types.Value, error) {
	if r.scans[st.t] != nil {
		return r.scans[st.t], nil
	}
	rows := [][]types.Value{}
	err := r.scanLocal(t, st, off, func(vals []types.Value) error {
		rows = append(rows, vals)
		return nil
	})
	if err != nil {
		return nil, err
	}
	r.scans[st.t] = rows
	return rows, nil
}

// scanLocal reads the step's table at the statement's snapshot, row by
// row, and calls fn with each row that passes the step's local
// conditions (checked on a row of their own: they read no other table),
// until fn fails.
func (r *joinRun) scanLocal(t *storage.Table, st *step, off int, fn func([]types.Value) error) error {
	r.ec.NoteFullScan()
	var scratch []types.Value
	if len(st.local) > 0 {
		scratch = make([]types.Value, r.width)
	}
	read := 0
	defer func() { r.ec.Examine(read) }()
	var err error
	r.x.ScanEach(t, nil, nil, func(it storage.ScanItem) bool {
		read++
		r.x.NoteRead(it.LSN)
		if it.Vals == nil {
			return true
		}
		if scratch != nil {
			copy(scratch[off:], it.Vals)
			r.ec.Row = scratch
			var ok bool
			if ok, err = passes(st.local, r.ec); err != nil || !ok {
				return err == nil
			}
		}
		err = fn(it.Vals)
		return err == nil
	})
	return err
}

// hash returns table t's rows by the key of cols (rows with a NULL there
// are left out: they equal nothing), built once.
func (r *joinRun) hash(jt *joinTable, st *step) (map[string][][]types.Value, error) {
	if h := r.hashes[st.t]; h != nil {
		return h, nil
	}
	rows, err := r.all(r.ec.TableOf(jt.Table), st, jt.Off)
	if err != nil {
		return nil, err
	}
	if err := r.ec.Mem.Grow(int64(len(rows)) * expr.RowBytes); err != nil {
		return nil, err
	}
	h := make(map[string][][]types.Value, len(rows))
	var kb []byte
rows:
	for _, vals := range rows {
		kb = kb[:0]
		for _, c := range st.keyCols {
			if vals[c].IsNull() {
				continue rows
			}
			kb = types.KeyString(kb, vals[c])
		}
		h[string(kb)] = append(h[string(kb)], vals)
	}
	r.hashes[st.t] = h
	return h, nil
}

// candidates returns the rows of the step's table to try against the
// partial row: those its key finds, or every row. Every condition is
// still checked on them; the key only leaves out rows that cannot match.
func (r *joinRun) candidates(jt *joinTable, st *step, row []types.Value) ([][]types.Value, error) {
	t := r.ec.TableOf(jt.Table) // a derived table: this execution's rows
	if st.access == accessScan {
		return r.all(t, st, jt.Off)
	}
	r.ec.Row = row
	vals, ok, err := KeyValues(r.ec, t, st.keyCols, st.keys)
	if err == errNotAKey {
		return r.all(t, st, jt.Off) // a key value of another type: compare the long way
	}
	if err != nil || !ok {
		return nil, err // a NULL key matches nothing
	}
	switch st.access {
	case accessPK:
		var out [][]types.Value
		if rr := t.Lookup(storage.KeyOf(vals)); rr != nil {
			if v := r.x.ReadSnapshot(t, rr); v.Vals != nil {
				out = append(out, v.Vals)
			}
		}
		r.ec.Examine(len(out))
		return out, nil
	case accessPKPrefix:
		var out [][]types.Value
		r.x.ScanEach(t, &vals[0], &vals[0], func(it storage.ScanItem) bool {
			r.x.NoteRead(it.LSN)
			if it.Vals != nil {
				out = append(out, it.Vals)
			}
			return true
		})
		r.ec.Examine(len(out))
		return out, nil
	case accessIdxPrefix:
		var out [][]types.Value
		for _, rr := range t.IndexRange(st.idx, vals, nil, nil) {
			if v := r.x.ReadSnapshot(t, rr); v.Vals != nil {
				out = append(out, v.Vals)
			}
		}
		r.ec.Examine(len(out))
		return out, nil
	case accessIndex:
		var kb []byte
		for _, v := range vals {
			kb = types.KeyString(kb, v)
		}
		key := string(kb)
		var out [][]types.Value
		for _, rr := range t.IndexCandidates(st.idx, key, vals) {
			v := r.x.ReadSnapshot(t, rr)
			if v.Vals == nil {
				continue
			}
			if rk, ok := t.IndexKey(st.idx, v.Vals); ok && rk == key {
				out = append(out, v.Vals)
			}
		}
		r.ec.Examine(len(out))
		return out, nil
	}
	h, err := r.hash(jt, st)
	if err != nil {
		return nil, err
	}
	var kb []byte
	for _, v := range vals {
		kb = types.KeyString(kb, v)
	}
	return h[string(kb)], nil
}
