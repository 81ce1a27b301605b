// Package exec plans and runs SELECT (select.go builds, selectrun.go
// runs: projection, GROUP BY and aggregates, DISTINCT, ORDER BY's stable
// sort, LIMIT), with ONLY_FULL_GROUP_BY's check, and is the session's
// statement-side state the other statement packages plan through.
//
// Query expressions (query.go) are a SELECT or, planned by sql/compose,
// a set operation over them, behind one interface (query.Plan) that
// subqueries, INSERT ... SELECT, derived tables, CTEs and views share.
// A FROM item (derived.go) is a stored table, a CTE or derived table
// (sql/compose: planned against a placeholder table, materialized once
// per execution into a transient table bound in the expr.Ctx) or a view
// (sql/view, views.go: read as a derived table, or merged). Aggregates
// compile into an aggregate.Set and accumulate in aggregate.Acc
// (aggregate.go groups); window functions compile into a window.Set and
// run after grouping, before projection (window.go). INSERT, UPDATE and
// DELETE are sql/dml's (writes.go is the session's door to them).
//
// A result set's Columns describe each column as MariaDB does
// (coldef.go): a table column read bare with its key and default flags,
// a computed one with its Expr's type and nullability (Column.Expr).
//
// State is a session's statement-side state: its expr.Env, the
// transaction manager whose catalog names resolve in, and the schema epoch
// plans are valid for (PlanFor caches a plan in the parse.Stmt). It is
// the Planner of sql/compose, the Host of sql/view and sql/dml. Every
// statement runs in a txn.Txn its caller (package sql) began and ends;
// nothing here commits. State also holds the session's temporary tables
// (temptables.go), which ResolveTable finds before the catalog's; a
// session that has any builds its own plans instead of sharing the cached
// ones.
//
// A name in the virtual schema (State.Virtual: information_schema, from
// sql/infoschema) resolves to a table built for this statement
// (virtual.go), narrowed by a single-table WHERE's `col = 'text'`
// equalities; a plan that built one is never cached, and writes to it are
// 1044 (ResolveTarget).
package exec
