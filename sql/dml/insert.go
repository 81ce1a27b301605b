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

// An INSERT is planned (this file: the target, its columns, the VALUES
// rows or the SELECT source, ON DUPLICATE KEY UPDATE's assignments) and
// run row by row (insertrun.go); autoinc.go fills defaults and
// AUTO_INCREMENT, replace.go and ondup.go handle a duplicate key.

type insertPlan struct {
	t       *storage.Table
	cols    []int
	rows    [][]*expr.Expr // nil entry = DEFAULT
	source  query.Plan     // INSERT ... SELECT (a SELECT, UNION ..., WITH ...)
	replace bool
	ignore  bool
	onDup   []assignment
	rules   *constraint.Rules // CHECKs and foreign keys; nil if none
	// view, check: the view inserted through and its WITH CHECK OPTION
	// condition over the new row.
	view  *view.Target
	check *expr.Expr
}

type assignment struct {
	col int
	e   *expr.Expr
}

func (s *Session) buildInsert(n *ast.InsertStmt) (*insertPlan, error) {
	var source query.Plan
	if n.Select != nil {
		var err error
		if source, err = s.PlanQuery(n.Select, nil); err != nil {
			return nil, err
		}
	}
	tn, _, err := plan.SingleTable(n.Table)
	if err != nil {
		return nil, err
	}
	t, vt, err := view.Resolve(s, tn, "", "INSERT")
	if err != nil {
		return nil, err
	}
	pl := &insertPlan{t: t, replace: n.IsReplace, ignore: n.IgnoreErr, source: source, view: vt}
	sc := &expr.Scope{DB: s.DB, Funcs: s.Functions(), Table: t, Alias: t.Def.Name, Sub: s}
	if vt != nil {
		sc.Alias, sc.View = vt.Alias, vt.Cols
		if pl.check, err = view.CheckOption(s, vt); err != nil {
			return nil, err
		}
	}
	def := t.Def
	{
		if len(n.Columns) == 0 && vt != nil {
			for _, name := range vt.Def.Columns {
				i, err := vt.InsertColumn(name)
				if err != nil {
					return nil, err
				}
				pl.cols = append(pl.cols, i)
			}
		} else if len(n.Columns) == 0 {
			for i := range def.Columns {
				pl.cols = append(pl.cols, i)
			}
		} else {
			seen := map[int]bool{}
			for _, c := range n.Columns {
				i := def.ColumnIndex(c.Name.O)
				if vt != nil {
					if i, err = vt.InsertColumn(c.Name.O); err != nil {
						return nil, err
					}
				}
				if i < 0 {
					return nil, sqlerr.New(sqlerr.ErBadField, "Unknown column '%s' in 'INSERT INTO'", c.Name.O)
				}
				if seen[i] {
					return nil, sqlerr.New(sqlerr.ErFieldSpecifiedTwice, "Column '%s' specified twice", c.Name.O)
				}
				seen[i] = true
				pl.cols = append(pl.cols, i)
			}
		}
		for ri, l := range n.Lists {
			if len(l) != len(pl.cols) && !(len(l) == 0 && len(n.Columns) == 0) {
				return nil, sqlerr.New(sqlerr.ErWrongValueCountOnRow, "Column count doesn't match value count at row %d", ri+1)
			}
			row := make([]*expr.Expr, len(l))
			for i, e := range l {
				if row[i], err = compileInsertValue(sc, e); err != nil {
					return nil, err
				}
			}
			pl.rows = append(pl.rows, row)
		}
	}
	if source != nil && len(source.Columns()) != len(pl.cols) {
		return nil, sqlerr.New(sqlerr.ErWrongValueCountOnRow, "Column count doesn't match value count at row 1")
	}
	for _, a := range n.OnDuplicate {
		i := def.ColumnIndex(a.Column.Name.O)
		if vt != nil {
			if i, err = vt.Column(a.Column, "UPDATE"); err != nil {
				return nil, err
			}
		}
		if i < 0 {
			return nil, sqlerr.New(sqlerr.ErBadField, "Unknown column '%s' in 'UPDATE'", a.Column.Name.O)
		}
		sc.Clause = "SELECT" // what MariaDB names an ON DUPLICATE KEY UPDATE value
		ce, err := sc.Compile(a.Expr)
		if err != nil {
			return nil, err
		}
		pl.onDup = append(pl.onDup, assignment{col: i, e: ce})
	}
	sc.Clause = ""
	if pl.rules, err = s.rulesFor(t, view.TableScope(sc)); err != nil {
		return nil, err
	}
	return pl, nil
}

// rowExprs returns VALUES row ri's expressions (none for INSERT ... SELECT).
func (pl *insertPlan) rowExprs(ri int) []*expr.Expr {
	if pl.source != nil {
		return nil
	}
	return pl.rows[ri]
}

// compileInsertValue compiles a VALUES item; DEFAULT becomes nil.
func compileInsertValue(sc *expr.Scope, e ast.ExprNode) (*expr.Expr, error) {
	if _, ok := e.(*ast.DefaultExpr); ok {
		return nil, nil
	}
	// Values are computed before the row exists: no column references.
	saved := sc.Table
	sc.Table, sc.Clause = nil, "VALUES"
	ce, err := sc.Compile(e)
	sc.Table, sc.Clause = saved, ""
	return ce, err
}

// PlanInsert compiles an INSERT (or REPLACE): the plan RunInsert runs,
// which the session caches with the statement.
func (s *Session) PlanInsert(n *ast.InsertStmt) (any, error) { return s.buildInsert(n) }

// RunInsert runs a plan of PlanInsert in x.
func (s *Session) RunInsert(ctx context.Context, x *txn.Txn, plan any, args []types.Value) (*query.Result, error) {
	return s.runInsert(ctx, x, plan.(*insertPlan), args)
}

// InsertSelect writes the rows of the compiled SELECT src into t's columns
// cols (CREATE TABLE ... [IGNORE|REPLACE] SELECT), with t's CHECKs, as
// INSERT [IGNORE] / REPLACE ... SELECT does.
func (s *Session) InsertSelect(ctx context.Context, x *txn.Txn, t *storage.Table, cols []int, src query.Plan, args []types.Value, ignore, replace bool) (*query.Result, error) {
	s.beginWrites()
	pl := &insertPlan{t: t, cols: cols, source: src, ignore: ignore, replace: replace}
	sc := &expr.Scope{DB: s.DB, Funcs: s.Functions(), Table: t, Alias: t.Def.Name, Sub: s}
	var err error
	if pl.rules, err = s.rulesFor(t, sc); err != nil {
		return nil, err
	}
	return s.runInsert(ctx, x, pl, args)
}
