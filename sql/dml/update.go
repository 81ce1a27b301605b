package dml

import (
	"context"
	"sort"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/constraint"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/plan"
	"github.com/plrun/plrun/sql/query"
	"github.com/plrun/plrun/sql/view"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

type UpdatePlan struct {
	Table   *storage.Table
	Access  *plan.Access
	assigns []assignment
	order   []query.OrderItem
	limit   *expr.Expr
	onNow   []int // ON UPDATE CURRENT_TIMESTAMP columns not assigned
	rules   *constraint.Rules
	// view, check: the view written through, and its WITH CHECK OPTION
	// condition over the new row (sql/view).
	view  *view.Target
	check *expr.Expr
}

func (s *Session) BuildUpdate(n *ast.UpdateStmt) (*UpdatePlan, error) {
	tn, alias, err := plan.SingleTable(n.TableRefs)
	if err != nil {
		return nil, err
	}
	if n.MultipleTable {
		return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support multi-table UPDATE")
	}
	t, vt, err := view.Resolve(s, tn, alias, "UPDATE")
	if err != nil {
		return nil, err
	}
	pl := &UpdatePlan{Table: t, view: vt}
	sc := &expr.Scope{DB: s.DB, Funcs: s.Functions(), Table: t, Alias: alias, Sub: s}
	where := n.Where
	if vt != nil {
		sc.Alias, sc.View, where = vt.Alias, vt.Cols, vt.And(n.Where)
		if pl.check, err = view.CheckOption(s, vt); err != nil {
			return nil, err
		}
	}
	assigned := map[int]bool{}
	for _, a := range n.List {
		var i int
		if vt != nil {
			if i, err = vt.Column(a.Column, "SET"); err != nil {
				return nil, err
			}
		} else if i = t.Def.ColumnIndex(a.Column.Name.O); i < 0 || (a.Column.Table.O != "" && !strings.EqualFold(a.Column.Table.O, alias)) {
			return nil, sqlerr.New(sqlerr.ErBadField, "Unknown column '%s' in 'SET'", expr.Qualified(a.Column))
		}
		sc.Clause = "SET"
		ce, err := sc.Compile(a.Expr)
		if err != nil {
			return nil, err
		}
		pl.assigns = append(pl.assigns, assignment{col: i, e: ce})
		assigned[i] = true
	}
	for i, c := range t.Def.Columns {
		if c.OnUpdateNow && !assigned[i] {
			pl.onNow = append(pl.onNow, i)
		}
	}
	sc.Clause = "WHERE"
	if pl.Access, err = plan.ChooseAccess(sc, t, where); err != nil {
		return nil, err
	}
	if pl.order, pl.limit, err = compileOrderLimit(sc, n.Order, n.Limit); err != nil {
		return nil, err
	}
	if len(pl.order) == 0 {
		// Without ORDER BY the first LIMIT rows found are the ones
		// written: the scan stops there, and locks no row after them.
		pl.Access.ServeLimit(pl.limit, nil)
	}
	if pl.rules, err = s.rulesFor(t, view.TableScope(sc)); err != nil {
		return nil, err
	}
	return pl, nil
}

// orderAndLimit applies an UPDATE/DELETE's ORDER BY and LIMIT to refs.
func orderAndLimit(ec *expr.Ctx, refs []plan.RowRef, order []query.OrderItem, limit *expr.Expr) ([]plan.RowRef, error) {
	if len(order) > 0 {
		keys := make([][]types.Value, len(refs))
		for i, r := range refs {
			ec.Row = r.Vals
			keys[i] = make([]types.Value, len(order))
			for k, o := range order {
				v, err := o.E.Fn(ec)
				if err != nil {
					return nil, err
				}
				keys[i][k] = v
			}
		}
		idx := make([]int, len(refs))
		for i := range idx {
			idx[i] = i
		}
		sortIdx(idx, func(a, b int) bool {
			for k, o := range order {
				if c := types.Compare(keys[a][k], keys[b][k]); c != 0 {
					return (c < 0) != o.Desc
				}
			}
			return false
		})
		sorted := make([]plan.RowRef, len(refs))
		for i, j := range idx {
			sorted[i] = refs[j]
		}
		refs = sorted
	}
	if limit != nil {
		v, err := limit.Fn(ec)
		if err != nil {
			return nil, err
		}
		if n, _ := v.ToInt64(); n >= 0 && n < int64(len(refs)) {
			refs = refs[:n]
		}
	}
	return refs, nil
}

// RunUpdate runs a plan of BuildUpdate for n in x.
func (s *Session) RunUpdate(ctx context.Context, x *txn.Txn, pl *UpdatePlan, n *ast.UpdateStmt, args []types.Value) (*query.Result, error) {
	if err := s.refuseUnsafeWrite(pl.Access, n.Limit != nil); err != nil {
		return nil, err
	}
	t := pl.Table
	if err := s.checkNotTriggering(t); err != nil {
		return nil, err
	}
	s.MultiRowWrite, s.IgnoreErrors = true, n.IgnoreErr
	defer func() { s.MultiRowWrite, s.IgnoreErrors = false, false }()
	ec := &expr.Ctx{Env: s.Env, Args: args, Strict: s.strictWrites(), Context: ctx, Txn: x}
	refs, err := pl.Access.Find(ctx, x, ec, true)
	if err != nil {
		return nil, err
	}
	if refs, err = orderAndLimit(ec, refs, pl.order, pl.limit); err != nil {
		return nil, err
	}
	var changed uint64
	matched := len(refs) // less the rows UPDATE IGNORE skips for a constraint
	pkCols := t.Def.PrimaryKey()
	for ri, r := range refs {
		nv := append([]types.Value(nil), r.Vals...)
		ec.Row = nv
		for _, a := range pl.assigns {
			v, err := a.e.Fn(ec)
			if err != nil {
				return nil, err
			}
			if nv[a.col], err = s.coerceColumn(t.Def, a.col, v, ri+1); err != nil {
				return nil, err
			}
		}
		if nv, err = s.fireBefore(ctx, x, t, "UPDATE", r.Vals, nv); err != nil {
			return nil, err
		}
		if pl.check != nil {
			ec.Row = nv
			if ok, err := expr.EvalBool(pl.check, ec); err != nil {
				return nil, err
			} else if !ok {
				return nil, pl.view.CheckFailed()
			}
		}
		if rowsEqual(r.Vals, nv) {
			// unchanged: MariaDB still runs the AFTER triggers of a
			// matched row
			if _, err := s.fire(ctx, x, t, "AFTER", "UPDATE", r.Vals, nv); err != nil {
				return nil, err
			}
			continue
		}
		for _, c := range pl.onNow {
			nv[c], _ = s.StoredTimestamp(t.Def, c, types.TimeValue(t.Def.Columns[c].Now(s.Now())))
		}
		mark := x.Mark()
		if err := s.checkUpdatedRow(ctx, x, pl.rules, ec, r.Vals, nv); err != nil {
			if s.ignoreConstraint(err) {
				matched--
				continue
			}
			return nil, err
		}
		slot := r.Row
		if pkCols != nil && storage.KeyOf(pkOf(t.Def, r.Vals)) != storage.KeyOf(pkOf(t.Def, nv)) { // a key equal under the collation keeps its slot
			pk := pkOf(t.Def, nv)
			key := storage.KeyOf(pk)
			if err := x.Lock(ctx, t, key); err != nil {
				return nil, err
			}
			ns := t.Slot(key, pk)
			if old := x.Read(t, ns); old.Vals != nil {
				if s.skipDuplicate(dupError(t, -1, nv)) {
					continue
				}
				return nil, dupError(t, -1, nv)
			}
			if err := checkUnique(ctx, x, t, r.Row, nv, nil); err != nil {
				t.ForgetIfEmpty(ns)
				if s.skipDuplicate(err) {
					continue
				}
				return nil, err
			}
			x.Write(t, r.Row, nil)
			slot = ns
		} else if err := checkUnique(ctx, x, t, slot, nv, func(i int) bool {
			a, _ := t.IndexKey(i, r.Vals)
			b, _ := t.IndexKey(i, nv)
			return a != b
		}); err != nil {
			if s.skipDuplicate(err) {
				continue
			}
			return nil, err
		}
		x.Write(t, slot, nv)
		if err := pl.rules.AfterWrite(s.fkWriter(ctx, x, pl.rules), r.Vals, nv); err != nil {
			if s.ignoreConstraint(err) {
				x.RollbackTo(mark)
				if slot != r.Row {
					t.ForgetIfEmpty(slot) // the row stays at its old key
				}
				matched--
				continue
			}
			return nil, err
		}
		if _, err := s.fire(ctx, x, t, "AFTER", "UPDATE", r.Vals, nv); err != nil {
			return nil, err
		}
		changed++
	}
	s.RowCount = int64(changed)
	return &query.Result{AffectedRows: changed, Info: "Rows matched: " + strconv.Itoa(matched) + "  Changed: " + strconv.FormatUint(changed, 10) + "  Warnings: " + strconv.Itoa(s.StmtWarnings)}, nil
}

func sortIdx(idx []int, less func(a, b int) bool) {
	sort.SliceStable(idx, func(i, j int) bool { return less(idx[i], idx[j]) })
}

// compileOrderLimit compiles an UPDATE's or DELETE's ORDER BY and LIMIT.
func compileOrderLimit(sc *expr.Scope, order *ast.OrderByClause, limit *ast.Limit) ([]query.OrderItem, *expr.Expr, error) {
	var items []query.OrderItem
	if order != nil {
		sc.Clause = "ORDER BY"
		for _, o := range order.Items {
			ce, err := sc.Compile(o.Expr)
			if err != nil {
				return nil, nil, err
			}
			items = append(items, query.OrderItem{E: ce, Desc: o.Desc})
		}
	}
	if limit == nil {
		return items, nil, nil
	}
	lim, err := sc.Compile(limit.Count)
	return items, lim, err
}
