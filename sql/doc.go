// Package sql is plrun's SQL layer: it parses the MySQL dialect with the
// TiDB parser (plus a small pre-scan for what that parser does not know:
// CREATE PROCEDURE ... LANGUAGE LUA|JAVASCRIPT, ALTER SYSTEM SET,
// CHECKPOINT, and optimizer hints such as COMMIT_ON_SUCCESS), caches parsed
// statements by text and the parse-relevant sql_mode flags, plans point
// operations on primary and unique keys, and executes statements in a
// Session over the txn layer.
//
// A Database (database.go) is what the sessions of one open database
// share: the transaction manager, the procedure catalog, the hot-row
// batcher, the global settings and the parsed-statement cache; the engine
// package builds it and implements the Engine interface a session calls
// for the database around it (worker pool, registry, checkpoints, KILL,
// SET GLOBAL, status). This package never imports wal, asynccommit or a
// language runtime. A Session
// belongs to one goroutine at a time (one connection, one REPL, one Go
// caller); KILL may reach it from another goroutine through its cancel
// function only (and the OnKill hook a server registers). What a
// protocol server needs beyond Exec is in connhooks.go: Describe for
// COM_STMT_PREPARE, Reset and ClearDB, OnKill, MaxAllowedPacket, and the
// panic guard: a statement that panics releases its worker and rolls back
// its transactions before the panic (as *PanicError) leaves Exec.
//
// Every loop over rows (scans, joins, projection, GROUP BY, DISTINCT,
// ORDER BY's merge sort) calls evalCtx.poll, which looks at the
// statement's context every few hundred rows (KILL, max_execution_time)
// and yields the core; what a statement buffers is charged to its memory
// budget (membudget, plrun_max_statement_memory) until it ends, error 3170
// past it. Integer arguments are read with saturatingInt/rowCountArg
// (intclamp.go), never by truncating ToInt64.
//
// Errors leave this package as *sqlerr.Error: lockmgr, txn and asynccommit
// sentinel errors are mapped here, once, to MySQL codes.
package sql
