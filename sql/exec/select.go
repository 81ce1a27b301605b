package exec

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/test_driver"
	"github.com/plrun/plrun/sql/aggregate"
	"github.com/plrun/plrun/sql/compose"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/plan"
	"github.com/plrun/plrun/sql/query"
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sql/view"
	"github.com/plrun/plrun/sql/window"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
)

type SelectPlan struct {
	t         *storage.Table
	acc       *plan.Access
	outs      []expr.OutputCol
	Cols      []Column
	aggs      aggregate.Set
	grouped   bool
	groupBy   []*expr.Expr
	having    *expr.Expr
	order     []query.OrderItem
	limit     *expr.Expr
	offset    *expr.Expr
	forUpdate bool
	distinct  bool
	join      *plan.Join // FROM with joins (t is nil then)
	// ctes (its WITH clause) and derived (its FROM's derived tables) are
	// materialized, in that order, when it runs (compose.Materialize).
	ctes    []*compose.CTE
	derived []*compose.Derived
	// windows are the window functions of the select list and ORDER BY.
	windows *window.Set
	// transient: the FROM reads a derived table, a view or a CTE.
	transient bool
	// keys are the columns its joins compare (compose.JoinKeys).
	keys compose.JoinKeys
	// merged is the view its FROM names, merged into it (t is the view's
	// base table then).
	merged *view.Target
	// correlated: the plan names columns of an enclosing query, read from
	// Ctx.Outer; it runs once per outer row.
	correlated bool
	// calcFoundRows: SQL_CALC_FOUND_ROWS, FOUND_ROWS() counts rows before LIMIT.
	calcFoundRows bool
}

// expandJoinWildcard adds the columns of * (every joined table) or t.*.
func (pl *SelectPlan) expandJoinWildcard(only string) error {
	cols, found := pl.join.Star(only)
	if !found {
		return sqlerr.New(sqlerr.ErBadTable, "Unknown table '%s'", only)
	}
	for _, sc := range cols {
		jt := pl.join.Tables[sc.Table]
		i, c := sc.Col, jt.Table.Def.Columns[sc.Col]
		ce := expr.ColumnExpr(jt.Table.Def, i, jt.Off+i, &jt.Source)
		pl.outs = append(pl.outs, expr.OutputCol{Name: c.Name, Expr: ce})
		pl.Cols = append(pl.Cols, fieldColumn(jt.Table.Def, i, c.Name, jt.Alias, jt.Left))
	}
	return nil
}

func (s *State) BuildSelect(n *ast.SelectStmt) (*SelectPlan, error) {
	return s.buildSubSelect(n, nil)
}

// buildSubSelect plans a SELECT; outer, for a subquery, is the enclosing
// query's scope, whose columns the subquery may name (it is then
// correlated and runs once per row of the enclosing query).
func (s *State) buildSubSelect(n *ast.SelectStmt, outer *expr.Scope) (*SelectPlan, error) {
	if n.Kind != ast.SelectStmtKindSelect {
		return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support this SELECT form")
	}
	pl := &SelectPlan{distinct: n.Distinct}
	if n.With != nil {
		pop, err := s.with.PushWith(s, n.With, &pl.ctes)
		defer pop()
		if err != nil {
			return nil, err
		}
	}
	if n.SelectStmtOpts != nil {
		pl.calcFoundRows = n.SelectStmtOpts.CalcFoundRows
	}
	sc := &expr.Scope{DB: s.DB, Funcs: s.Functions(), Sub: s, Outer: outer, Correlated: &pl.correlated}
	var alias string
	var err error
	from := func(ts *ast.TableSource) (*storage.Table, string, error) { return s.fromItem(pl, ts) }
	if plan.IsJoin(n.From) {
		pl.keys = compose.CollectJoinKeys(n.From, n.Where)
		if n.LockInfo != nil && n.LockInfo.LockType != ast.SelectLockNone {
			return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support locking reads of joins")
		}
		if pl.join, err = plan.BuildJoin(sc, n.From, n.Where, from); err != nil {
			return nil, err
		}
		if n.SelectStmtOpts != nil && n.SelectStmtOpts.StraightJoin {
			pl.join.Straight()
		}
	} else if ts := plan.SingleSource(n.From); ts != nil {
		if tn, ok := ts.Source.(*ast.TableName); ok && (s.IsVirtual(tn.Schema.O) || (tn.Schema.O == "" && s.IsVirtual(s.DB))) {
			// information_schema: WHERE's equalities narrow the rows built
			s.buildEq = s.equalities(n.Where, tn, ts.AsName.O)
			defer func() { s.buildEq = nil }()
		}
		if vt := view.Mergeable(s, ts); vt != nil {
			// The view's SELECT merges into this one (view.Mergeable).
			pl.t, alias, pl.merged = vt.Base, vt.Cols.Name, vt
			sc.Table, sc.Alias, sc.View = vt.Base, vt.Alias, vt.Cols
		} else if pl.t, alias, err = from(ts); err != nil {
			return nil, err
		} else {
			sc.Table, sc.Alias = pl.t, alias
		}
	} else if _, _, err = plan.SingleTable(n.From); err != nil {
		return nil, err
	}
	sc.Aggs = &pl.aggs
	sc.ImplicitGroup = n.GroupBy == nil && selectAggregates(n)
	sc.Clause = "SELECT"
	if pl.windows, err = window.NewSet(n.WindowSpecs); err != nil {
		return nil, err
	}
	sc.Windows = pl.windows
	if n.Fields != nil {
		for _, f := range n.Fields.Fields {
			if f.WildCard != nil && pl.join != nil {
				if err := pl.expandJoinWildcard(f.WildCard.Table.O); err != nil {
					return nil, err
				}
				continue
			}
			if f.WildCard != nil {
				if pl.t == nil {
					return nil, sqlerr.New(sqlerr.ErNoTablesUsed, "No tables used")
				}
				if w := f.WildCard.Table.O; w != "" && !strings.EqualFold(w, alias) {
					return nil, sqlerr.New(sqlerr.ErBadTable, "Unknown table '%s'", w)
				}
				if pl.merged != nil {
					pl.expandViewWildcard(alias)
					continue
				}
				for i, c := range pl.t.Def.Columns {
					ce, _ := sc.ResolveColumn(&ast.ColumnName{Name: ast.NewCIStr(c.Name)})
					pl.outs = append(pl.outs, expr.OutputCol{Name: c.Name, Expr: ce})
					pl.Cols = append(pl.Cols, fieldColumn(pl.t.Def, i, c.Name, alias, false))
				}
				continue
			}
			ce, err := sc.Compile(f.Expr)
			if err != nil {
				return nil, err
			}
			name := f.AsName.O
			if cn, ok := unparen(f.Expr).(*ast.ColumnNameExpr); ok && name == "" {
				name = cn.Name.Name.O // t.id is labelled id, as MySQL does
			}
			if name == "" {
				name = selectLabel(f)
			}
			col := exprColumn(name, ce)
			if ce.Source != nil {
				col = fieldColumn(ce.Source.Table.Def, ce.Col, name, ce.Source.Alias, ce.Source.Left)
			} else if ce.Col >= 0 && pl.t != nil {
				col = fieldColumn(pl.t.Def, ce.Col, name, alias, false)
			}
			col.NotNull = col.NotNull && ce.NotNull // NULL over no rows in an implicit group
			pl.outs = append(pl.outs, expr.OutputCol{Name: name, Expr: ce})
			pl.Cols = append(pl.Cols, col)
		}
	}
	sc.Aggs, sc.Windows = nil, nil
	sc.Clause = "WHERE"
	if pl.join != nil {
		// WHERE is part of the join plan.
	} else if pl.t != nil {
		where := n.Where
		if pl.merged != nil {
			where = pl.merged.And(n.Where) // only the rows the view shows
		}
		if pl.acc, err = plan.ChooseAccess(sc, pl.t, where); err != nil {
			return nil, err
		}
	} else if n.Where != nil {
		f, err := sc.Compile(n.Where)
		if err != nil {
			return nil, err
		}
		pl.acc = &plan.Access{Filter: f}
	}
	sc.Aggs = &pl.aggs
	if n.GroupBy != nil {
		sc.Clause = "GROUP BY"
		for _, g := range n.GroupBy.Items {
			ce, err := s.compileOrderExpr(sc, pl, g.Expr)
			if err != nil {
				return nil, err
			}
			pl.groupBy = append(pl.groupBy, ce)
		}
	}
	sc.Outputs = pl.outs
	if n.Having != nil {
		sc.Clause = "HAVING"
		if pl.having, err = sc.Compile(n.Having.Expr); err != nil {
			return nil, err
		}
	}
	if n.OrderBy != nil {
		sc.Clause = "ORDER BY"
		sc.Windows = pl.windows
		for _, o := range n.OrderBy.Items {
			ce, err := s.compileOrderExpr(sc, pl, o.Expr)
			if err != nil {
				return nil, err
			}
			pl.order = append(pl.order, query.OrderItem{E: ce, Desc: o.Desc})
		}
	}
	sc.Windows = nil
	pl.grouped = len(pl.aggs.Specs) > 0 || len(pl.groupBy) > 0
	if pl.grouped && s.SQLMode()&sysvar.ModeOnlyFullGroup != 0 {
		if err := s.checkFullGroupBy(n, pl, alias); err != nil {
			return nil, err
		}
	}
	if n.Limit != nil {
		if pl.limit, err = sc.Compile(n.Limit.Count); err != nil {
			return nil, err
		}
		if n.Limit.Offset != nil {
			if pl.offset, err = sc.Compile(n.Limit.Offset); err != nil {
				return nil, err
			}
		}
	}
	if n.LockInfo != nil {
		switch n.LockInfo.LockType {
		case ast.SelectLockNone:
		case ast.SelectLockForUpdate, ast.SelectLockForShare:
			if pl.transient {
				// The rows are this execution's copy: there is nothing
				// to lock, and the base rows are not locked through it.
				return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support locking reads of derived tables, views or CTEs")
			}
			// plrun's row locks are exclusive: LOCK IN SHARE MODE takes
			// the same lock as FOR UPDATE (stronger than InnoDB's shared
			// lock, never weaker), so what it read cannot change under it.
			// information_schema's rows are built for this statement
			// alone: there is nothing to lock, and MariaDB locks nothing.
			pl.forUpdate = pl.t == nil || !s.IsVirtual(pl.t.Def.DB)
		default:
			return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support NOWAIT, WAIT n or SKIP LOCKED")
		}
	}
	pl.serveOrderByIndex()
	return pl, nil
}

// compileOrderExpr resolves ORDER BY / GROUP BY items: a position, a
// select-list alias, or an expression.
func (s *State) compileOrderExpr(sc *expr.Scope, pl *SelectPlan, e ast.ExprNode) (*expr.Expr, error) {
	if pos, ok := e.(*ast.PositionExpr); ok {
		if pos.N < 1 || pos.N > len(pl.outs) {
			return nil, sqlerr.New(sqlerr.ErBadField, "Unknown column '%d' in '%s'", pos.N, sc.ClauseName())
		}
		return pl.outs[pos.N-1].Expr, nil
	}
	if cn, ok := e.(*ast.ColumnNameExpr); ok && cn.Name.Table.L == "" {
		for _, o := range pl.outs {
			if strings.EqualFold(o.Name, cn.Name.Name.O) {
				return o.Expr, nil
			}
		}
	}
	return sc.Compile(e)
}

// selectLabel is the column name MySQL gives a select-list item without an
// alias: a string literal's value, NULL for NULL, otherwise the expression
// as written.
func selectLabel(f *ast.SelectField) string {
	if v, ok := f.Expr.(*test_driver.ValueExpr); ok {
		switch v.Kind() {
		case test_driver.KindNull:
			return "NULL"
		case test_driver.KindString, test_driver.KindBytes:
			return v.GetString()
		}
	}
	if t := strings.TrimSpace(f.Text()); t != "" {
		return t
	}
	return expr.ColumnLabel(f.Expr)
}

// unparen is e without the parentheses around it: (t.a) is labelled a.
func unparen(e ast.ExprNode) ast.ExprNode {
	for {
		p, ok := e.(*ast.ParenthesesExpr)
		if !ok {
			return e
		}
		e = p.Expr
	}
}
