// Package exec plans and runs the statements that read and write rows:
// SELECT (select.go builds, selectrun.go runs: projection, GROUP BY and
// aggregates, DISTINCT, ORDER BY's stable sort, LIMIT), INSERT (VALUES,
// SELECT, ON DUPLICATE KEY UPDATE, REPLACE, IGNORE), UPDATE and DELETE,
// and MySQL's conversions of written values (strict and non-strict,
// nonstrict.go), with ONLY_FULL_GROUP_BY's check.
//
// Query expressions (query.go) are a SELECT or a set operation over them
// (setop.go: UNION, INTERSECT, EXCEPT with MariaDB's precedence and type
// unification), behind one interface that subqueries, INSERT ... SELECT,
// derived tables, CTEs and views share. Derived tables, CTEs (cte.go,
// WITH RECURSIVE too) and views (view.go) are planned against placeholder
// tables and materialized once per execution into transient tables bound
// in the expr.Ctx (derived.go explains why plans stay shareable). Window
// functions run after grouping, before projection (window.go).
//
// A result set's Columns describe each column as MariaDB does
// (coldef.go): a table column read bare with its key and default flags,
// a computed one with its Expr's type and nullability (Column.Expr).
//
// State is a session's statement-side state: its expr.Env, the
// transaction manager whose catalog names resolve in, and the schema epoch
// plans are valid for (PlanFor caches a plan in the parse.Stmt). Every
// statement runs in a txn.Txn its caller (package sql) began and ends;
// nothing here commits. Each row write goes through the table's
// constraint.Rules (CHECKs and FOREIGN KEYs; package constraint). State
// also holds the session's temporary tables (temptables.go), which
// ResolveTable finds before the catalog's; a session that has any builds
// its own plans instead of sharing the cached ones.
//
// A name in the virtual schema (State.Virtual: information_schema, from
// sql/infoschema) resolves to a table built for this statement
// (virtual.go), narrowed by a single-table WHERE's `col = 'text'`
// equalities; a plan that built one is never cached, and writes to it are
// 1044 (ResolveTarget).
package exec
