package compose

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/query"
	"github.com/plrun/plrun/storage"
)

// Planner plans the query expressions a set operation or a CTE is made
// of, whatever their kind (sql/exec's State: a SELECT there, a set
// operation back here).
type Planner interface {
	PlanQuery(n ast.Node, outer *expr.Scope) (query.Plan, error)
	// BaseScope is an expression scope of the session's database and
	// functions, naming no table yet.
	BaseScope() *expr.Scope
}

// Select is what a recursive CTE's rules ask of a SELECT's plan
// (sql/exec's SelectPlan).
type Select interface {
	// ReadsDirectly reports whether the SELECT's own FROM reads t, and
	// not as the optional side of a LEFT JOIN.
	ReadsDirectly(t *storage.Table) bool
	// Aggregates reports whether it groups, aggregates or is DISTINCT.
	Aggregates() bool
}

// Builder is a session's planning state for composed queries: the WITH
// clauses around the query being planned.
type Builder struct {
	ctes *cteScope
}

// Isolate hides every CTE in scope (a view's SELECT sees none of the
// query naming it) until restore is called.
func (b *Builder) Isolate() (restore func()) {
	saved := b.ctes
	b.ctes = nil
	return func() { b.ctes = saved }
}
