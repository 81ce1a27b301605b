// Package compose plans and runs the query expressions built of other
// queries: set operations (setop.go plans UNION, INTERSECT and EXCEPT
// [ALL | DISTINCT] with MariaDB's precedence and type unification;
// setoprun.go runs them in the row order MariaDB's temporary table
// gives), common table expressions (cte.go, WITH RECURSIVE too, with
// MariaDB's restrictions and max_recursive_iterations), and derived
// tables (derived.go: the placeholder table a derived table, CTE or view
// is planned against, and its materialization once per execution into a
// transient table bound in the expr.Ctx; joinkeys.go indexes the columns
// a join compares, as derived_with_keys does).
//
// It plans no SELECT: the operands, CTE bodies and derived tables are
// planned by sql/exec through the Planner interface (exec.State), and a
// recursive CTE asks of a SELECT's plan only what Select says. Every plan
// is a query.Plan, so either package runs the other's. A Builder is a
// session's planning state (the WITH clauses in scope); plans hold no
// execution's rows and are shared by sessions like every cached plan.
package compose
