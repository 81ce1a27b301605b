// Package aggregate is SQL's aggregate functions: compiling a call
// (compile.go, compileconcat.go: COUNT, SUM, AVG, MIN, MAX, DISTINCT,
// GROUP_CONCAT with ORDER BY and SEPARATOR, JSON_ARRAYAGG,
// JSON_OBJECTAGG, with MariaDB's result types) into a query's Set, and
// accumulating it over a group or a window frame (acc.go, concat.go:
// Acc, with MariaDB's rules: a DOUBLE sum that overflows is 0, AVG's
// DECIMAL scale, group_concat_max_len's cut and warning 1260).
//
// The Set is sql/expr's Scope.Aggs while a SELECT compiles
// (expr.AggScope), so expr knows no aggregate: each call is a slot whose
// value for the current group the executor puts in Ctx.Aggs. sql/exec
// groups the rows and sql/window frames them; both feed each row to an
// Acc. What an Acc holds is charged to the statement's memory account.
package aggregate
