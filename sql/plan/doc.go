// Package plan chooses how a statement reaches its rows and reads them
// that way: the access path of a single-table statement (primary-key or
// unique-key point lookups, IN lists, index lookups, primary-key ranges,
// a prefix of any index's columns with a range on the next one, or a scan
// with a filter: ChooseAccess, Access.Find; ORDER BY ... LIMIT read in an
// index's order and stopped early: ServeOrder, orderlimit.go) and the plan
// of a FROM with joins (BuildJoin, Join.Rows).
//
// Joins. Every table's columns sit at a fixed offset of the joined row (the
// FROM order), so one compiled condition serves any join order. WHERE and
// the inner joins' ON clauses are split into AND-ed conditions, each with
// the set of tables it reads (conds.go); a LEFT JOIN's ON stays whole, at
// its table, where a row with no match is NULL-extended. The order is
// chosen greedily (order.go): of the tables allowed next (a LEFT-joined
// table only after the tables of its left side, the tables after it only
// after it; STRAIGHT_JOIN keeps the FROM order), the one whose reading
// costs least and keeps fewest rows for the loops below. Each step reads
// its table by the primary key or a UNIQUE or plain index when equalities
// with constants or earlier tables give all its columns, else by a hash
// of the table on the columns equal to earlier tables' values (built once
// per execution), else by a scan; conditions on the table alone are
// checked once per row as a scan or hash reads it, the others as soon as
// their tables are in the row. Keys only narrow the candidates: every
// condition is still checked, so NULLs, collations and values of another
// type mean exactly what = means.
//
// Statistics are what storage keeps anyway and costs nothing to read: a
// table's size (Table.Len, any *storage.Table, so derived tables and views
// materialized for an execution plug in through BuildJoin's resolver) and
// each secondary index's distinct keys (Table.IndexSize); a primary or
// unique key names one row. Conditions the statistics do not measure keep
// a tenth (equalities) or a third (anything else). There is no ANALYZE to
// run: when a table's size has halved or doubled since a plan's order was
// chosen, the next execution chooses again (Join.currentOrder).
//
// RIGHT JOIN is a LEFT JOIN the other way round (as the first join only);
// USING and NATURAL build the ON equalities, put the merged columns first
// in * and hide the merged-away copy from unqualified names (using.go).
//
// Plans are built once per statement text, schema epoch, database and
// plan-relevant sql_mode, and shared by sessions; they hold no
// per-execution state (that is in the expr.Ctx they run in, and joinRun).
package plan
