// Package plan chooses how a statement reaches its rows and reads them
// that way: the access path of a single-table statement (primary-key or
// unique-key point lookups, IN lists, index ranges, or a scan with a
// filter: ChooseAccess, Access.Find) and the plan of a FROM with joins
// (BuildJoin: nested loops left to right, each table looked up by key
// where its key columns equal expressions over the tables before it, WHERE
// conjuncts checked at the first table that has their columns; Join.Rows).
//
// Plans are built once per statement text, schema epoch, database and
// plan-relevant sql_mode, and shared by sessions; they hold no
// per-execution state (that is in the expr.Ctx they run in).
package plan
