// Package plan chooses how a statement reaches its rows and reads them
// that way: the access path of a single-table statement (primary-key or
// unique-key point lookups, IN lists, index ranges, or a scan with a
// filter: ChooseAccess, Access.Find) and the plan of a FROM with joins
// (BuildJoin: nested loops left to right, each table looked up by key
// where its key columns equal expressions over the tables before it, WHERE
// conjuncts checked at the first table that has their columns; Join.Rows).
//
// A table a plan reads may be the placeholder of a derived table, a CTE
// or a view: Access.Find and Join.Rows read the rows the execution bound
// to it (expr.Ctx.TableOf), and take no row locks on them.
//
// Plans are built once per statement text, schema epoch, database and
// plan-relevant sql_mode, and shared by sessions; they hold no
// per-execution state (that is in the expr.Ctx they run in).
package plan
