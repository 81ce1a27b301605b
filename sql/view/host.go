package view

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/query"
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/storage"
)

// Host is what views ask of the session planning a statement (sql/exec's
// State).
type Host interface {
	expr.SubqueryPlanner
	// DBFor is the database a statement names, or the session's (1046).
	DBFor(named string) (string, error)
	// ResolveTable finds a table by name (not a view: an error).
	ResolveTable(tn *ast.TableName) (*storage.Table, error)
	// Catalog holds the tables and views names resolve to.
	Catalog() *storage.Catalog
	IsVirtual(db string) bool
	// AccessDenied is 1044 for a write to the virtual schema.
	AccessDenied(db string) error
	Functions() expr.FunctionHost
	SQLMode() sysvar.SQLMode
	// HasCTE reports whether a CTE of that name is in scope.
	HasCTE(name string) bool
	// PlanView plans a view's SELECT in database db, no CTE of the query
	// naming the view in scope: as CREATE VIEW's (defining), or one view
	// deeper than the query being planned.
	PlanView(db string, rs ast.ResultSetNode, defining bool) (query.Plan, error)
	// ViewDepth counts the views being expanded into the query planned.
	ViewDepth() int
}

// Select is what a view asks of a SELECT's plan (sql/exec's SelectPlan).
type Select interface {
	// Table is the one table its FROM reads (a merged view's base table),
	// nil for a join or no FROM.
	Table() *storage.Table
	// FromTables are the tables * stands for, each with its alias.
	FromTables() []FromTable
	// Merged is the view merged into its FROM, nil if none.
	Merged() *Target
	// Plain reports that it has no aggregate, GROUP BY, DISTINCT, window
	// function, derived table, CTE or LIMIT.
	Plain() bool
}

// FromTable is a table of a FROM and the alias naming it.
type FromTable struct {
	Alias string
	Def   *storage.TableDef
}

// tableOnly is the plan of a SELECT from one table, as far as printing it
// asks: a view's whose table is gone.
type tableOnly struct{ t *storage.Table }

func (p tableOnly) Table() *storage.Table   { return p.t }
func (p tableOnly) FromTables() []FromTable { return []FromTable{{Alias: p.t.Def.Name, Def: p.t.Def}} }
func (tableOnly) Merged() *Target           { return nil }
func (tableOnly) Plain() bool               { return true }
