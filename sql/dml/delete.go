package dml

import (
	"context"

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

type deletePlan struct {
	t     *storage.Table
	acc   *plan.Access
	order []query.OrderItem
	limit *expr.Expr
	rules *constraint.Rules
}

func (s *Session) buildDelete(n *ast.DeleteStmt) (*deletePlan, error) {
	if n.IsMultiTable {
		return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support multi-table DELETE")
	}
	tn, alias, err := plan.SingleTable(n.TableRefs)
	if err != nil {
		return nil, err
	}
	t, vt, err := view.Resolve(s, tn, alias, "DELETE")
	if err != nil {
		return nil, err
	}
	pl := &deletePlan{t: t}
	sc := &expr.Scope{DB: s.DB, Funcs: s.Functions(), Table: t, Alias: alias, Sub: s}
	where := n.Where
	if vt != nil {
		sc.Alias, sc.View, where = vt.Alias, vt.Cols, vt.And(n.Where)
	}
	sc.Clause = "WHERE"
	if pl.acc, err = plan.ChooseAccess(sc, t, where); err != nil {
		return nil, err
	}
	if pl.order, pl.limit, err = compileOrderLimit(sc, n.Order, n.Limit); err != nil {
		return nil, err
	}
	if len(pl.order) == 0 {
		// Without ORDER BY the first LIMIT rows found are the ones
		// written: the scan stops there, and locks no row after them.
		pl.acc.ServeLimit(pl.limit, nil)
	}
	if pl.rules, err = s.rulesFor(t, view.TableScope(sc)); err != nil {
		return nil, err
	}
	return pl, nil
}

// PlanDelete compiles a DELETE: the plan RunDelete runs, which the
// session caches with the statement.
func (s *Session) PlanDelete(n *ast.DeleteStmt) (any, error) { return s.buildDelete(n) }

// RunDelete runs a plan of PlanDelete for n in x.
func (s *Session) RunDelete(ctx context.Context, x *txn.Txn, plan any, n *ast.DeleteStmt, args []types.Value) (*query.Result, error) {
	pl := plan.(*deletePlan)
	if err := s.checkNotTriggering(pl.t); err != nil {
		return nil, err
	}
	if err := s.refuseUnsafeWrite(pl.acc, n.Limit != nil); err != nil {
		return nil, err
	}
	ec := &expr.Ctx{Env: s.Env, Args: args, Context: ctx, Txn: x}
	refs, err := pl.acc.Find(ctx, x, ec, true)
	if err != nil {
		return nil, err
	}
	if refs, err = orderAndLimit(ec, refs, pl.order, pl.limit); err != nil {
		return nil, err
	}
	w := s.fkWriter(ctx, x, pl.rules)
	s.IgnoreErrors = n.IgnoreErr
	defer func() { s.IgnoreErrors = false }()
	deleted := 0
	for _, r := range refs {
		mark := x.Mark()
		if _, err := s.fire(ctx, x, pl.t, "BEFORE", "DELETE", r.Vals, nil); err != nil {
			return nil, err
		}
		x.Write(pl.t, r.Row, nil)
		if err := pl.rules.AfterWrite(w, r.Vals, nil); err != nil {
			if s.ignoreConstraint(err) {
				x.RollbackTo(mark) // the row and its cascades stay
				continue
			}
			return nil, err
		}
		if _, err := s.fire(ctx, x, pl.t, "AFTER", "DELETE", r.Vals, nil); err != nil {
			return nil, err
		}
		deleted++
	}
	s.RowCount = int64(deleted)
	return &query.Result{AffectedRows: uint64(deleted)}, nil
}
