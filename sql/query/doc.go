// Package query is what planned query expressions share, whichever
// package plans them: the result a statement returns (Result, Column,
// Note), the Plan interface every query expression implements (a SELECT
// in sql/exec, a set operation in sql/compose) and the RunCtx one
// execution runs in, and the row operations every query kind applies to
// its result: ORDER BY's interruptible stable sort (SortStable), LIMIT,
// a row's identity for DISTINCT and set operations, and the transient
// table a derived table or CTE is loaded into (Fill).
//
// It plans nothing and imports no planner: sql/compose and sql/exec sit
// above it and reach each other's plans only through Plan.
package query
