// Package sql is plrun's statement language: a Session runs statements —
// parsed by sql/parse, their expressions compiled by sql/expr, their rows
// reached through sql/plan and read and written by sql/exec, schema
// changes by sql/ddl — over the txn layer, and keeps what a connection
// has: the current database, the open transaction and its isolation, the
// session variables (sql/sysvar), warnings, and procedure calls (CALL,
// DO LANGUAGE blocks) in the registered languages.
//
// This package holds statement dispatch (exec.go: one switch over the
// statement kinds), transactions (BEGIN/COMMIT/ROLLBACK/SAVEPOINT,
// isolation.go, the hot-row group update of seed 002 in hotupdate.go),
// SET and SHOW (setshow.go), CALL and DO blocks (call.go, doblock.go,
// recursion.go; the session is the procedure's procs.Host, so this stays
// here; emit.go: the result sets and notes a procedure sends its caller,
// collected in a sql/callout.Output by the outermost CALL for nested ones
// too and returned as Result.Sets and Result.Notes before its OK), stored
// function calls (funcs_call.go: expr.FunctionHost, resolving a call at
// plan build and running it per row, its statements inside the calling
// statement's transaction), trigger firing (triggers.go), and what a
// protocol server needs beyond Exec (connhooks.go: Describe for
// COM_STMT_PREPARE, Reset and ClearDB, OnKill, and the panic guard: a
// statement that panics releases its worker and rolls back its
// transactions before the panic, as *PanicError, leaves Exec).
//
// What grew here and stands on a small interface of the session lives in
// packages of its own, each with a Host the session implements (one
// adapter file each: locktables.go, dataio.go, routinehost.go):
// sql/tablelock (LOCK TABLES, FTWRL, metadata locks), sql/dataio (LOAD
// DATA, INTO OUTFILE), sql/routines (CREATE/DROP PROCEDURE, FUNCTION,
// TRIGGER), and, with no session at all, sql/callout (values and result
// sets across the CALL boundary) and sql/counters (SHOW STATUS counters).
//
// A Database (database.go) is what the sessions of one open database
// share: the transaction manager, the procedure catalog and its
// runtimes, the hot-row batcher, the global settings and the
// parsed-statement cache. The engine package builds it and implements
// Engine, what a session asks of the database around it (worker pool,
// session registry, checkpoints, KILL, SET GLOBAL, status). This package
// never imports wal, asynccommit, the engine or a language runtime
// (internal/layout checks it).
//
// A Session belongs to one goroutine at a time (one connection, one REPL,
// one Go caller); KILL reaches it from another goroutine only through
// Interrupt (its cancel function and the OnKill hook a server registers).
//
// Logs: a top-level statement writes itself to the general query log as
// it starts and to the slow query log as it ends (querylogs.go, over
// sql/querylog, which the engine owns; FLUSH LOGS reopens them), with the
// rows its access paths examined (expr.Env.RowsExamined) and its row-lock
// waits (lockmgr.WaitClock); KILL is written to the error log with who
// sent it (kill.go, Database.Logger).
//
// Errors leave this package as *sqlerr.Error: lockmgr, txn and
// asynccommit sentinel errors are mapped here, once, by MapError.
package sql
