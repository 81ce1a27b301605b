package exec

import (
	"context"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/compose"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sql/query"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

// buildQuery plans any query expression; outer is the enclosing query's
// scope, for a subquery.
func (s *State) buildQuery(n ast.Node, outer *expr.Scope) (query.Plan, error) {
	switch q := n.(type) {
	case *ast.SelectStmt:
		return s.buildSubSelect(q, outer)
	case *ast.SetOprStmt:
		return s.with.BuildSetOp(s, q, outer)
	case *ast.SetOprSelectList:
		return compose.BuildSetOpList(s, q, outer)
	case *ast.SubqueryExpr:
		return s.buildQuery(q.Query, outer)
	}
	return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support this query form")
}

// PlanQuery plans any query expression (compose.Planner: the operands
// of a set operation, a CTE's body).
func (s *State) PlanQuery(n ast.Node, outer *expr.Scope) (query.Plan, error) {
	return s.buildQuery(n, outer)
}

// BaseScope is an expression scope of the session's database and
// functions (compose.Planner).
func (s *State) BaseScope() *expr.Scope { return &expr.Scope{DB: s.DB, Funcs: s.Functions()} }

// ReadsDirectly reports whether the SELECT's own FROM reads t, and not as
// the optional side of a LEFT JOIN (compose.Select).
func (pl *SelectPlan) ReadsDirectly(t *storage.Table) bool {
	if pl.t == t {
		return true
	}
	if pl.join != nil {
		for _, jt := range pl.join.Tables {
			if jt.Table == t {
				return !jt.Left
			}
		}
	}
	return false
}

// Aggregates reports whether the SELECT groups, aggregates or is DISTINCT
// (compose.Select).
func (pl *SelectPlan) Aggregates() bool { return pl.grouped || pl.distinct }

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
	res, err := pi.(query.Plan).Exec(query.RunCtx{Ctx: ctx, Txn: x, Env: &s.Env, Args: args})
	if err == nil {
		s.FoundRows = res.FoundRows
		s.RowCount = -1
	}
	return res, err
}
