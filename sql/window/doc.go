// Package window is SQL's window functions: compiling a call and its
// window (compile.go: OVER (PARTITION BY ... ORDER BY ... frame), named
// windows of the WINDOW clause with MariaDB's rules on referencing them,
// ROWS and RANGE frames, MariaDB's errors 4008-4018) into a query's Set,
// and computing every function of the Set over the rows or groups a
// SELECT has left after WHERE, GROUP BY and HAVING (compute.go: ranking,
// LAG/LEAD, NTILE, FIRST/LAST/NTH_VALUE and the aggregates over frames).
//
// The Set is sql/expr's Scope.Windows while the select list and ORDER BY
// compile (expr.WindowScope), so expr knows no window; each call then
// reads its value for the current row from Ctx.Wins, which sql/exec sets
// from Values before it projects a row. Frames' aggregates accumulate in
// sql/aggregate's Acc, as GROUP BY's do.
package window
