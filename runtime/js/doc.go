// Package js runs plrun stored procedures written in JavaScript
// (github.com/dop251/goja, ECMAScript 5.1+ with most of ES6).
//
// A body is compiled once, in Compile, to a *goja.Program shared by all
// calls; each Call borrows a *goja.Runtime from the Runtime's pool (one VM
// per goroutine at a time) and gives it back afterwards.
//
// # Parameters
//
// The body is wrapped, on its own first line, as
//
//	(function(session, a, b) {(function() { BODY
//	})(); return [a, b]; })
//
// so parameters are variables named as declared, `return` ends the
// procedure early, script line numbers are body line numbers, and OUT and
// INOUT values are read back from the same names after the body returns:
// assign `b = a * 2`, do not declare `let b`. Bodies run in strict mode, so
// an undeclared assignment is an error instead of a global that would leak
// into the next call on the pooled VM.
//
// # Stored functions
//
// CompileFunction (procs.FunctionCompiler) compiles a stored function's
// body as "(function(session, a, b) { BODY })": `return` gives the result.
// Each pooled VM evaluates that once and keeps the function value
// (vm.functions); a call only converts the arguments and calls it, and
// the heap watch starts only for a call that runs past one sample
// (membudget.LazyWatch).
//
// # session
//
// `session` has the same methods as in the Lua runtime (after MySQL 9's
// JavaScript stored-program API):
//
//	session.runSql(sql [, [params]])  -> SqlResult
//	session.sql(sql).bind(v, ...).execute()         // bind also takes one array
//	session.prepare(sql) -> statement; bind/execute as often as wanted
//	session.startTransaction(), session.commit([{wait: 'complete'}]),
//	session.rollback(), session.setSavepoint(name), session.rollbackTo(name),
//	session.releaseSavepoint(name)
//	session.emit(res)                               // a result set for the caller
//	session.emit(["col", ...], [[v, ...], ...])
//	console.log(...)                                // a note for the caller (also info, warn, error, debug)
//
// session.emit sends a result set to the CALL's caller (procs.Host.Emit),
// after those emitted before it and before the CALL's final OK, as a SELECT
// in a MySQL procedure does: res is an SqlResult of session.runSql (all its
// rows, with the statement's column types), or column names and an array
// of rows (column types from the values; null for NULL). console.log's
// output (strings as they are, other values as JSON.stringify shows them,
// separated by spaces) is a note of the CALL (SHOW WARNINGS: level Note,
// code 1105), the first 64 kept and each cut at 512 bytes; the notes a
// failed CALL made are listed before its error.
//
// execute clears the bound values. SqlResult: fetchOne() (next row or null),
// fetchAll(), getAffectedItemsCount(), getAutoIncrementValue(),
// getColumnNames(), getWarningsCount(). A row is an object readable as
// row.name and row[0]; SQL NULL is null.
//
// # Numbers
//
// Integers of magnitude up to 2^53 are numbers; larger ones (and such
// counts) are BigInt. DECIMAL values are exact strings. A BigInt passed to
// SQL is sent as int64/uint64 (or a decimal string if it fits neither).
//
// # Errors
//
// A failing SQL call throws an Error whose code, sqlState and message are
// the SQL error's; try/catch sees them. If uncaught (or rethrown), Call
// returns an *sqlerr.Error with the same code and SQLSTATE and a message
// naming the procedure and line; so does a runtime error (TypeError,
// ReferenceError, RangeError, SyntaxError, EvalError, URIError: 1644,
// 45000, "name line N: TypeError: ...").
//
// A value the script throws itself is like SIGNAL: any object with a
// numeric code, a 5-character sqlState and a message is that SQL error;
// an Error is 1644 (45000) with its message, any other value 1644 with its
// String(). The message is exactly the one thrown (MESSAGE_TEXT), and
// where it was thrown is in the error's Where ("transfer line 7"; for a
// file, "transfer (procs/transfer.js line 8)"), which SHOW WARNINGS lists
// as a note after the error.
//
// # Sandbox and cancellation
//
// goja has no require, module loader, file system, network or process
// object; none is added (console only makes notes, see above). The global object, every
// builtin reachable from it, session and the statement/result prototypes
// are deep-frozen when a VM is made (about 5 ms and 3 MB per VM, paid once
// thanks to the pool), so a script cannot change what the next call on the
// pooled VM sees: globalThis.x = 1 or Array.prototype.map = null throws a
// TypeError. (A consequence: assigning toString or another inherited name
// on a plain object throws in strict mode; define it with
// Object.defineProperty or in the object literal.) Cancelling Call's ctx
// interrupts the VM (context.AfterFunc -> Runtime.Interrupt), which no
// try/catch can swallow; the returned error wraps ctx.Err(). The interrupt
// flag is cleared before the VM goes back to the pool. Panics are recovered
// into errors and the VM is discarded.
//
// # Memory budget
//
// String.prototype.repeat, concat, padStart, padEnd and
// Array.prototype.join (budget.go) check their result's size against the
// CALL's memory budget (membudget, plrun_max_statement_memory) before goja
// allocates it; past it they throw error 3170. Every `a + b`, `x += y` and
// untagged template literal is compiled as __plrun_concat(...) (concat.go),
// which interrupts the VM with 3170 when a string result over 64 Ki units
// is larger than the budget has left, so `s += s` stops one doubling past
// the budget (about 45 ns more per `+`). What a script grows in small
// steps (arrays, objects, many small strings) is watched by
// membudget.Watch, which interrupts the VM with 3170 (the watch has ended
// before the interrupt flag is cleared). Neither interrupt can be caught
// by the script's try/catch.
package js
