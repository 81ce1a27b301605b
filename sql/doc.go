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
// SET and SHOW (setshow.go), CALL and procedures (call.go, doblock.go,
// outparams.go; emit.go: the result sets and notes a procedure sends its
// caller, which the outermost CALL collects for nested ones too and
// returns as Result.Sets and Result.Notes before its OK), stored functions (funcs.go: CREATE/DROP/SHOW; funcs_call.go:
// expr.FunctionHost, resolving a call at plan build and running it per row,
// its statements inside the calling statement's transaction), and what a
// protocol server needs beyond Exec
// (connhooks.go: Describe for COM_STMT_PREPARE, Reset and ClearDB,
// OnKill, and the panic guard: a statement that panics releases its
// worker and rolls back its transactions before the panic, as
// *PanicError, leaves Exec).
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
// Errors leave this package as *sqlerr.Error: lockmgr, txn and
// asynccommit sentinel errors are mapped here, once, by MapError.
package sql
