package procs

import "context"

// Result is what one SQL statement run by a procedure returns.
//
// Row values are nil (SQL NULL), int64, uint64, float64 or string. DECIMAL,
// DATETIME, TIMESTAMP and character columns arrive as strings; DECIMAL
// strings are exact ("12.50"), never rounded through a float.
type Result struct {
	Columns      []string
	Rows         [][]any
	AffectedRows uint64
	LastInsertID uint64
	Warnings     uint16
	// Origin is the host's own form of this result (the sql layer's
	// *exec.Result), kept so that emitting a result a statement returned
	// keeps its column types. Runtimes pass it along untouched.
	Origin any
}

// CommitWait says how long a commit made by a procedure waits.
type CommitWait int

const (
	// WaitSession follows the session: under ob_enable_pl_async_commit the
	// commit returns once its record has an LSN and its locks are released;
	// otherwise it waits until the commit is durable.
	WaitSession CommitWait = iota
	// WaitComplete always waits until the commit is durable (Tarantool's
	// box.commit({wait = 'complete'})).
	WaitComplete
)

// Host is the SQL session a procedure runs in. The sql layer implements it;
// runtimes only call it. A Host is used by one goroutine at a time: the one
// running the CALL.
//
// Errors returned by Host methods are *sqlerr.Error values (code, SQLSTATE,
// message); runtimes expose them to scripts as catchable errors.
type Host interface {
	// Exec runs one SQL statement with ? placeholders bound to args
	// (nil, bool, int64, uint64, float64, string values).
	Exec(ctx context.Context, sql string, args []any) (*Result, error)
	StartTransaction(ctx context.Context) error
	Commit(ctx context.Context, wait CommitWait) error
	Rollback(ctx context.Context) error
	Savepoint(ctx context.Context, name string) error
	RollbackToSavepoint(ctx context.Context, name string) error
	ReleaseSavepoint(ctx context.Context, name string) error
	// Emit sends res to the CALL's caller as a result set of its own, after
	// the sets emitted before it and before the CALL's final OK (a SQL
	// procedure's SELECT without INTO; session.emit in Lua and JavaScript).
	Emit(ctx context.Context, res *Result) error
	// Note adds msg to the CALL's notes (SHOW WARNINGS level Note, code
	// 1105): print in Lua, console.log in JavaScript. The host bounds how
	// many notes a CALL keeps and how long each is.
	Note(ctx context.Context, msg string) error
}

// Runtime compiles procedure bodies of one language.
type Runtime interface {
	// Language is the upper-case name used in LANGUAGE clauses: "LUA" or
	// "JAVASCRIPT".
	Language() string
	// Compile checks def.Body's syntax and returns a Program that can be
	// called many times, concurrently. A syntax error is an *sqlerr.Error
	// (code 1064) naming the procedure and line.
	Compile(def *Definition) (Program, error)
}

// Program is a compiled procedure. Call may run on many goroutines at once;
// each call borrows its own VM from a pool.
type Program interface {
	// Call runs the body with args given in parameter order (one per
	// parameter; OUT parameters get nil). It returns one value per
	// parameter: the final value of each OUT and INOUT parameter and nil for
	// IN ones. Cancelling ctx stops the script (gopher-lua SetContext, goja
	// Interrupt) and Call returns an error that wraps ctx.Err().
	Call(ctx context.Context, host Host, args []any) (outs []any, err error)
}
