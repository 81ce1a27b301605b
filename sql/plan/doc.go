// Package plan chooses how a statement reaches its rows and reads them
// that way: the access path of a single-table statement (primary-key or
// unique-key point lookups, IN lists, index lookups, primary-key ranges,
// a prefix of any index's columns with a range on the next one, or a scan
// with a filter: ChooseAccess, Access.Find; ORDER BY ... LIMIT read in an
// index's order and stopped early: ServeOrder, orderlimit.go) and the plan
// of a FROM with joins (BuildJoin, Join.Rows).
//
// Joins. The FROM tree (tree.go) gives the tables in the order written and
// its joins; every table's columns sit at a fixed offset of the joined row
// (that order), so one compiled condition serves any join order. WHERE and
// the ON clauses are split into AND-ed conditions, each with the set of
// tables it reads (conds.go). An outer join's NULL-extended side (one
// table, or several: a parenthesized join, the tables before a RIGHT
// JOIN) is a group, joined after the side the join keeps and one table
// after another; its ON parts (and those of inner joins inside it) are
// gates checked within the group, and when no combination passes them all
// the group goes on as NULLs; WHERE parts that read the group wait for its
// last table, and apply to the NULL row too. The order is chosen by
// estimated cost (order.go): the rows read in all plus the rows coming
// out, over every order those constraints allow (STRAIGHT_JOIN keeps the
// FROM order) for up to five tables; beyond, greedily, taking next the
// allowed table whose reading costs least and keeps fewest rows for the
// loops below. Each step reads
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
// RIGHT JOIN is a LEFT JOIN the other way round; USING and NATURAL build
// the ON equalities, put the merged columns first in * and hide the
// merged-away copy from unqualified names (using.go).
//
// Reading. A scan or a primary-key range reads the table row by row at
// the statement's snapshot (txn.Txn.ScanEach: a backed table a chunk at a
// time from memory and the store), so a scan holds only the rows it keeps:
// Access.Find collects the matches, a join's first table is never held,
// the others only their rows that pass their own conditions. A LIMIT
// without ORDER BY (ServeLimit; SELECT, UPDATE, DELETE) or with one in the
// primary key's order stops the scan at its last row; LIMIT 0 reads
// nothing. A DESC order of the primary key reads the whole range forwards
// keeping the last rows; a secondary index is read as storage lists it.
//
// A table a plan reads may be the placeholder of a derived table, a CTE
// or a view: Access.Find and Join.Rows read the rows the execution bound
// to it (expr.Ctx.TableOf), and take no row locks on them.
//
// Plans are built once per statement text, schema epoch, database and
// plan-relevant sql_mode, and shared by sessions; they hold no
// per-execution state (that is in the expr.Ctx they run in, and joinRun).
package plan
