// Package aggregate computes aggregate functions over rows: Acc
// accumulates COUNT, SUM, AVG, MIN, MAX (DISTINCT too) and GROUP_CONCAT /
// JSON_ARRAYAGG / JSON_OBJECTAGG for one group or window frame, with
// MariaDB's result rules (a DOUBLE sum that overflows is 0, AVG's DECIMAL
// scale, group_concat_max_len's cut and warning 1260).
//
// Aggregates are compiled by sql/expr (an AggSpec per call, the query's
// slots in Ctx.Aggs); sql/exec groups the rows and sql/window frames
// them, and both feed each row to an Acc. What an Acc holds is charged to
// the statement's memory account.
package aggregate
