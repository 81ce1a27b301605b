// Package sqlerr holds the one error type that crosses plrun's edges: a
// MySQL error number, its SQLSTATE and a message. Inner packages return
// sentinel errors (lockmgr.ErrDeadlock, asynccommit.ErrOutcomeUnknown, ...)
// wrapped with %w; the sql layer maps them once, with FromError, to an
// *Error that the REPL, the server and the procedure runtimes show as is.
//
// Nothing here has state; every function is safe for concurrent use.
package sqlerr
