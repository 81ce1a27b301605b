// Package driver is a database/sql driver for an embedded plrun engine:
//
//	import _ "github.com/plrun/plrun/driver"
//
//	db, err := sql.Open("plrun", "file:/path/to/dir?enable_early_lock_release=ON&innodb_flush_log_at_trx_commit=1")
//
// The DSN is a data directory ("file:DIR", or DIR alone) and query
// parameters; every parameter is a global setting applied at open (as SET
// GLOBAL would), except "procs" (a folder of procedure files to load) and
// "workers" (the engine's worker pool size).
//
// Engines are shared: all connections, and all *sql.DB, whose DSNs name
// the same directory use one engine, reference-counted and closed (which
// syncs its log) when the last *sql.DB closes. A second open of a
// directory with different parameters is an error rather than a silent
// mix of settings.
//
// Each driver connection owns one sql.Session (its current database,
// transaction and session variables); database/sql uses a connection from
// one goroutine at a time, which is what a Session requires. Statements
// are executed with Session.Exec, so a call returns only once what it
// committed or read is durable; a cancelled context interrupts the
// statement (ER_QUERY_INTERRUPTED). SQL errors are returned as
// *sqlerr.Error and never as driver.ErrBadConn: the connection stays
// usable, as a MySQL connection does after an error.
//
// A CALL whose procedure returns result sets (session.emit in Lua and
// JavaScript) is queried with db.Query; its sets are the rows' result
// sets, in order: rows.NextResultSet moves to the next one, as with
// go-sql-driver/mysql.
package driver
