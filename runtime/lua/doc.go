// Package lua runs plrun stored procedures written in Lua 5.1
// (github.com/yuin/gopher-lua).
//
// A body is parsed and compiled once, in Compile, to a *lua.FunctionProto
// that all calls share; each Call borrows an LState from the Runtime's pool
// (one VM per goroutine at a time), runs the proto in a fresh global
// environment and gives the LState back.
//
// # Parameters
//
// Parameters are globals named as declared. Each call gets a fresh
// environment table whose __index is the VM's shared globals, so globals a
// script assigns do not leak into the next call. After the body returns
// (or runs off its end) the OUT and INOUT values are read back from the same
// globals: assign `b = a * 2`, do not declare `local b`.
//
// # Stored functions
//
// CompileFunction (procs.FunctionCompiler) compiles a stored function's
// body as "return function(a, b) BODY end": parameters are locals, the
// body's return value is the result. Each pooled LState runs that chunk
// once and keeps the closure (vm.functions), so a call pushes the closure
// and its arguments and nothing else; the environment of function bodies
// refuses new globals (they would outlive the call on the pooled VM), and
// the heap watch starts only for a call that runs past one sample
// (membudget.LazyWatch).
//
// # session
//
// The global `session` has the same methods as the JavaScript runtime:
//
//	session:runSql(sql [, {params}])  -> SqlResult
//	session:sql(sql):bind(v, ...):execute()        -- bind also takes one array table
//	session:prepare(sql)  -> statement; bind/execute as often as wanted
//	session:startTransaction(), session:commit([{wait = 'complete'}]),
//	session:rollback(), session:setSavepoint(name), session:rollbackTo(name),
//	session:releaseSavepoint(name)
//	session:emit(res)                               -- a result set for the caller
//	session:emit({"col", ...}, {{v, ...}, ...})
//	session.NULL                                    -- SQL NULL inside a params array
//	print(...)                                      -- a note for the caller
//
// session:emit sends a result set to the CALL's caller (procs.Host.Emit),
// after those emitted before it and before the CALL's final OK, as a SELECT
// in a MySQL procedure does: res is an SqlResult of session:runSql (all its
// rows, with the statement's column types), or column names and an array
// of rows (column types from the values; session.NULL for NULL, since a nil
// ends a Lua array). print's output (its arguments through tostring,
// separated by tabs) is a note of the CALL (SHOW WARNINGS: level Note,
// code 1105), the first 64 kept and each cut at 512 bytes, so a procedure
// can be debugged; the notes a failed CALL made are listed before its
// error.
//
// Both session:method(...) and session.method(...) work (session is one
// object, so the Go side recognises and drops a leading self). Statements
// and results are objects of their own: call their methods with a colon
// (stmt:bind(1):execute(), res:fetchOne()).
//
// Bound values of a statement are cleared by execute, so
// stmt:bind(1):execute(); stmt:bind(2):execute() runs twice with one value.
//
// SqlResult: fetchOne() (next row or nil), fetchAll() (array of rows),
// getAffectedItemsCount(), getAutoIncrementValue(), getColumnNames(),
// getWarningsCount(). A row is a table with 1-based integer keys and column
// name keys; SQL NULL is nil.
//
// # Numbers
//
// Lua numbers are float64 (gopher-lua LNumber). Integer values from SQL
// whose magnitude is at most 2^53 arrive as numbers; larger ones (BIGINT,
// BIGINT UNSIGNED) arrive as decimal strings, so they are never silently
// rounded; pass them back to SQL as strings. DECIMAL values are exact
// strings ("12.50"). A Lua number that is integral and fits int64 is sent to
// SQL as int64, any other number as float64.
//
// # Errors
//
// A failing SQL call raises a catchable error value (userdata) with fields
// code, sqlState, message and line, whose tostring is
// "ERROR 1062 (23000): Duplicate entry ...". pcall returns it. If uncaught,
// Call returns an *sqlerr.Error with the same code and SQLSTATE and a
// message naming the procedure and line ("transfer line 7: Duplicate entry
// '1' for key 'PRIMARY'"); so does a runtime error (1644, 45000, "name line
// N: attempt to index a nil value").
//
// An error the script raises itself is like SIGNAL: error{code=, sqlState=,
// message=} (a table with those fields) is that SQL error, and
// error("text") (or any other value) is 1644 (45000) "text". Its message
// is exactly the one raised (MESSAGE_TEXT), and where it was raised is in
// the error's Where ("transfer line 7"), which SHOW WARNINGS lists as a
// note after the error. For a procedure loaded from a file the place is
// the file and its line: "transfer (procs/transfer.lua line 8)".
//
// # Sandbox and cancellation
//
// Only the base (minus dofile, loadfile, load, loadstring, require, module,
// getfenv, setfenv; print makes notes, see above), string, table, math and coroutine libraries are
// opened (coroutines inherit the call's context, so they are cancelled with
// it). The library tables are read-only proxies (pairs(string) is empty;
// string.upper = nil raises) and `_G` is the call's own environment, so a
// script cannot change what the next call on the pooled LState sees. os, io,
// package and debug are stand-ins whose every field raises "... is not
// available in procedures". Call sets the LState's context to ctx (gopher-lua checks it
// at every instruction), so cancelling ctx stops even a tight loop; the
// returned error wraps ctx.Err(). A panic in a Go function the script
// calls (the Host included) becomes error 1105 naming the procedure; one
// that escapes the VM is recovered too and that LState is discarded.
//
// # Memory budget and long built-ins
//
// gopher-lua builds strings and matches patterns in Go, out of reach of
// its per-instruction context check and with no size limit, so
// string.find/match/gmatch/gsub run on runtime/lua/pattern (plrun's own
// Lua 5.1 matcher, checking the context every few thousand steps) and
// string.rep/format/gsub, table.concat and every `..` (rewritten by
// Compile into a call of __plrun_concat, concat.go) check the size of
// what they build against the CALL's memory budget (membudget, the
// plrun_max_statement_memory setting) before allocating: past it the
// script gets error 3170, catchable with pcall like any SQL error. What a
// script grows one element at a time (tables) is watched by
// membudget.Watch, which cancels the VM's context with 3170.
package lua
