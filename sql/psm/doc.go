// Package psm is SQL/PSM, the language of MySQL's stored procedures, as a
// procs.Runtime (Language "SQL"): CREATE PROCEDURE without a LANGUAGE
// clause, or with LANGUAGE SQL, and .sql procedure files.
//
// Flow of a procedure:
//
//	def.Body "BEGIN ... END"  --lex-->  tokens  --compiler-->  tree of stmt (once, at CREATE)
//	    control statements (DECLARE, IF, CASE, WHILE, REPEAT, LOOP, labels, LEAVE,
//	    ITERATE, OPEN/FETCH/CLOSE, SIGNAL/RESIGNAL, GET DIAGNOSTICS, RETURN, SET,
//	    SELECT ... INTO, transactions) are read by this package's own scanner;
//	    expressions and plain statements are cut out as text and parsed by
//	    the TiDB parser (sql/parse), which does not take SIGNAL, LOOP, CALL
//	    or SELECT ... INTO in bodies.
//	Program.Call(ctx, host, args) --> runner (locals, cursors, handlers, diagnostics)
//	    expressions: sql/expr closures over Ctx.Locals, in the session's
//	                 Env (EnvHost; procedures and function bodies both lend it),
//	                 or "SELECT expr" through host.Exec for a host without one
//	    statements:  host.Exec(text with ? for each local, the locals' values);
//	                 a result set (SELECT without INTO) goes to host.Emit
//	    COMMIT ...:  host.Commit / StartTransaction / Rollback / Savepoint
//
// Invariants:
//   - A body is parsed once. Each plain statement's text is restored once,
//     with every local variable it names (a bare column name that resolves
//     to a local in scope, which shadows a column as in MySQL) replaced by
//     a ? bound to the variable's slot, so the engine's plan cache serves
//     every iteration of a loop.
//   - Conditions and SET of locals never go through the statement path
//     when the host lends its Env: that is what keeps seed 003's loop as
//     fast as Lua's (BenchmarkSeed003Call in bench).
//   - Transactions go through the same Host methods the Lua and JavaScript
//     session APIs call, so ob_enable_pl_async_commit, the CALL's
//     durable-before-reply wait (invariant 3) apply unchanged. The
//     statement's context is looked at before every statement and every
//     loop iteration: KILL and max_execution_time stop any loop, and no
//     handler catches them.
//   - A Program holds no per-call state: any number of CALLs run it at
//     once, each with its own runner.
//   - Rows are never dropped: a SELECT without INTO (or a SHOW, or a
//     nested CALL's sets) goes to Host.Emit, a result set of the CALL;
//     where the caller takes none the host's 1312 is the statement's
//     error, which a handler may take, as in MySQL.
//
// Handlers follow MySQL: the innermost block's most specific handler (an
// error number, then an SQLSTATE, then SQLEXCEPTION / NOT FOUND) takes a
// condition raised by any statement inside it; CONTINUE resumes after
// that statement, EXIT leaves the handler's block. A handler runs with
// only the enclosing blocks' handlers active. SELECT ... INTO with no row
// is a NOT FOUND completion condition: a warning (1329) when no handler
// takes it; FETCH past the last row is error 1329.
//
// Functions: CompileFunction compiles a body in which RETURN expr is
// allowed (it is 1313 in procedures) and Function.Call returns the value
// of the RETURN that ended it, or 1321 when the body ends without one.
// START TRANSACTION, COMMIT and ROLLBACK in a function body are 1422 at
// compile time, as in MariaDB. Function implements procs.FunctionProgram
// (Eval), so sql runs CREATE FUNCTION ... BEGIN ... RETURN ...; END
// bodies as it runs Lua and JavaScript ones.
//
// Refused, with the error named: UNDO handlers and SQLWARNING (or SQLSTATE
// '01...') handlers (1235: warnings do not raise conditions yet); SIGNAL
// items other than MESSAGE_TEXT and MYSQL_ERRNO and the other GET
// DIAGNOSTICS condition items (1235); START TRANSACTION with
// characteristics, COMMIT/ROLLBACK AND CHAIN or RELEASE (1235). A nested CALL lends each local
// passed as a bare argument to the callee as a user variable
// (@__psm_arg_N, restored after), so OUT and INOUT parameters write it
// back; that needs the host's Env (1235 without).
package psm
