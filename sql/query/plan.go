package query

import (
	"context"

	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

// Plan is a planned query expression: a SELECT (exec.SelectPlan) or a set
// operation over query expressions (compose.SetOp). Both are
// expr.Subquery, so either serves IN (...), EXISTS, a scalar subquery, a
// derived table, a CTE or INSERT ... SELECT.
type Plan interface {
	expr.Subquery
	Columns() []Column
	// Exec runs the query once in rc.
	Exec(rc RunCtx) (*Result, error)
}

// RunCtx is one execution of a query expression: the statement it runs
// in, its arguments, the enclosing query's row (a correlated subquery),
// strict conversions (it feeds an INSERT), and the derived tables and CTEs
// materialized around it.
type RunCtx struct {
	Ctx    context.Context
	Txn    *txn.Txn
	Env    *expr.Env
	Args   []types.Value
	Outer  []types.Value
	Strict bool
	Binds  *expr.TableBinding
	Up     *expr.Ctx // the enclosing query's context, for columns named more than one level out
}

// RunCtxOf is the execution of a subquery inside the statement c runs.
func RunCtxOf(c *expr.Ctx, outer []types.Value) RunCtx {
	return RunCtx{Ctx: c.Context, Txn: c.Txn, Env: c.Env, Args: c.Args, Outer: outer, Strict: c.Strict, Binds: c.Tables, Up: c}
}

// Nested is the execution of a query materialized inside the statement
// c runs (a CTE or derived table): c's tables are bound, but it names
// no column of an enclosing query.
func Nested(c *expr.Ctx) RunCtx {
	return RunCtx{Ctx: c.Context, Txn: c.Txn, Env: c.Env, Args: c.Args, Strict: c.Strict, Binds: c.Tables}
}

// NewCtx is the expression context an execution in rc evaluates in, its
// memory account open (the caller closes it).
func (rc RunCtx) NewCtx() *expr.Ctx {
	return &expr.Ctx{Env: rc.Env, Args: rc.Args, Context: rc.Ctx, Txn: rc.Txn, Outer: rc.Outer, Up: rc.Up, Strict: rc.Strict, Mem: expr.NewMemAccount(rc.Ctx), Notes: new([]Note), Tables: rc.Binds}
}

// ColumnTypes are the types of cols.
func ColumnTypes(cols []Column) []types.ColType {
	out := make([]types.ColType, len(cols))
	for i, c := range cols {
		out[i] = c.Type
	}
	return out
}

// ResultDef is a table definition of result columns: the placeholder of
// a derived table or CTE, or the row a set operation's ORDER BY reads.
func ResultDef(cols []Column, name string) *storage.TableDef {
	def := &storage.TableDef{Name: name}
	for _, c := range cols {
		def.Columns = append(def.Columns, storage.Column{Name: c.Name, Type: c.Type, NotNull: c.NotNull})
	}
	return def
}
