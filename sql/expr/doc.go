// Package expr compiles SQL expressions to typed closures (Expr) once per
// statement text and evaluates them per row in a Ctx: operators (ops.go;
// the bitwise ones and BitOperand, how they read a number, bitwise.go),
// name resolution against one table, joined tables or an enclosing query
// (resolve.go; a column of a query any number of levels out reads that
// query's row through Ctx.Up), CASE, variables, CAST, ANY/ALL subqueries
// (anyall.go), and calls of the built-in functions, whose families
// sql/funcs and sql/jsonfuncs register with RegisterFamily (a new
// function is one case in one family).
//
// Compiled expressions are shared by every session running the same
// statement: all per-execution state lives in the Ctx (parameters, the
// current row, aggregate results, the Go context, the transaction, the
// memory account, the warnings). Env is a session's state as expressions
// and statements see it; Host is what they ask of the session beyond it
// (system variables, who is connected). Subqueries are planned and run
// by the executor behind the Subquery and SubqueryPlanner interfaces, so
// this package imports no planner. A name that is no built-in (or is
// written db.name) is a stored function: funcs_stored.go resolves it at
// compile time through FunctionHost (part of Host, implemented by the
// session; Scope.Funcs) and calls it per row through the same interface.
//
// Aggregates and window functions are not compiled here: a call compiles
// through the query's Scope.Aggs (AggScope, sql/aggregate's Set) or
// Scope.Windows (WindowScope, sql/window's Set); this package only
// refuses one where none is given or inside another (1111, 4015, 4008),
// and the call reads its value for the current group or row from
// Ctx.Aggs / Ctx.Wins (agg.go, window.go). A derived table, CTE or view
// is planned against a placeholder table; the rows an execution
// materialized for it are bound in Ctx.Tables (binding.go).
// A write through a view resolves the view's columns to expressions over
// its base table (Scope.View).
//
// Every Expr carries the result type and nullability MariaDB describes
// it by (a result column's type, length, decimals and NOT_NULL flag, and
// the column CREATE TABLE ... SELECT makes): the rules are in restype.go
// (literals, arithmetic, the aggregation of IF/CASE/COALESCE) and, for
// built-in functions, in one table applied after a family compiled them
// (restype_funcs.go), so the families compute values and say little
// about their description.
//
// Every loop over rows calls Ctx.Poll, which looks at the statement's
// context every few hundred rows (KILL, max_execution_time); what a
// statement buffers is charged to its MemAccount (membudget,
// plrun_max_statement_memory), error 3170 past it. Integer arguments are
// read with saturatingInt/RowCountArg (intclamp.go), never by truncating.
package expr
