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

// queryPlan is a planned query expression: a SELECT (SelectPlan) or a set
// operation over query expressions (setOpPlan). Both are expr.Subquery,
// so either serves IN (...), EXISTS, a scalar subquery, a derived table, a
// CTE or INSERT ... SELECT.
type queryPlan interface {
	expr.Subquery
	Columns() []Column
	run(rc runCtx) (*Result, error)
}

// runCtx is one execution of a query expression: the statement it runs
// in, its arguments, the enclosing query's row (a correlated subquery),
// strict conversions (it feeds an INSERT), and the derived tables and CTEs
// materialized around it.
type runCtx struct {
	ctx    context.Context
	x      *txn.Txn
	env    *expr.Env
	args   []types.Value
	outer  []types.Value
	strict bool
	binds  *expr.TableBinding
	up     *expr.Ctx // the enclosing query's context, for columns named more than one level out
}

// runCtxOf is the execution of a subquery inside the statement c runs.
func runCtxOf(c *expr.Ctx, outer []types.Value) runCtx {
	return runCtx{ctx: c.Context, x: c.Txn, env: c.Env, args: c.Args, outer: outer, strict: c.Strict, binds: c.Tables, up: c}
}

// buildQuery plans any query expression; outer is the enclosing query's
// scope, for a subquery.
func (s *State) buildQuery(n ast.Node, outer *expr.Scope) (queryPlan, error) {
	switch q := n.(type) {
	case *ast.SelectStmt:
		return s.buildSubSelect(q, outer)
	case *ast.SetOprStmt:
		return s.buildSetOp(q, outer)
	case *ast.SetOprSelectList:
		return s.buildSetOpList(q, outer)
	case *ast.SubqueryExpr:
		return s.buildQuery(q.Query, outer)
	}
	return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support this query form")
}

// PlanSubquery plans a subquery (SubqueryPlanner).
func (s *State) PlanSubquery(q ast.ResultSetNode, outer *expr.Scope) (expr.Subquery, error) {
	return s.buildQuery(q, outer)
}

// BuildQuery plans a top-level query expression (SELECT, UNION ...,
// WITH ...): what the server describes for a prepared statement.
func (s *State) BuildQuery(n ast.ResultSetNode) (QueryPlan, error) {
	q, err := s.buildQuery(n, nil)
	if err != nil {
		return nil, err
	}
	return q, nil
}

// QueryPlan is a planned query expression, as the session sees it: the
// columns it returns.
type QueryPlan interface{ Columns() []Column }

// Columns are the result columns of the SELECT.
func (pl *SelectPlan) Columns() []Column { return pl.Cols }

// ExecQuery runs a query expression statement: a SELECT, a set
// operation, either with WITH.
func (s *State) ExecQuery(ctx context.Context, x *txn.Txn, p *parse.Stmt, n ast.ResultSetNode, args []types.Value) (*Result, error) {
	s.buildArgs = args // a virtual table may use WHERE's ? values (virtual.go)
	pi, err := s.PlanFor(p, func() (any, error) { return s.buildQuery(n, nil) })
	s.buildArgs = nil
	if err != nil {
		return nil, err
	}
	res, err := pi.(queryPlan).run(runCtx{ctx: ctx, x: x, env: &s.Env, args: args})
	if err == nil {
		s.FoundRows = res.foundRows
		s.RowCount = -1
	}
	return res, err
}
