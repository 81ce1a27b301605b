package procs

import (
	"fmt"
	"strconv"

	"github.com/plrun/plrun/sqlerr"
)

// Helpers the language runtimes share so that both report errors the same
// way. line is the 1-based line of the procedure body; 0 means unknown.

func where(proc string, line int) string {
	if line <= 0 {
		return proc
	}
	return proc + " line " + strconv.Itoa(line)
}

// SQLErrorAt is e, raised inside procedure proc at line and not caught:
// the same code and SQLSTATE, the message prefixed with where it happened
// ("transfer line 7: Duplicate entry '1' for key 'PRIMARY'"). It unwraps to e.
func SQLErrorAt(proc string, line int, e *sqlerr.Error) *sqlerr.Error {
	out := sqlerr.Wrap(e, e.Code, "%s: %s", where(proc, line), e.Message)
	out.State = e.State
	return out
}

// ScriptErrorAt is an uncaught non-SQL script error (a runtime error or a
// thrown string): error 1644, SQLSTATE 45000, like an unhandled SIGNAL.
func ScriptErrorAt(proc string, line int, msg string) *sqlerr.Error {
	return sqlerr.New(sqlerr.ErSignalException, "%s: %s", where(proc, line), msg)
}

// SyntaxErrorAt is a compile-time error in a procedure body: error 1064.
func SyntaxErrorAt(proc string, line int, msg string) *sqlerr.Error {
	return sqlerr.New(sqlerr.ErParse, "Syntax error in PROCEDURE %s: %s", where(proc, line), msg)
}

// InterruptedAt is the error a Program returns when its ctx ended while the
// script ran. It wraps cause (ctx.Err()) and nothing else, so that the sql
// layer maps it: context.Canceled (KILL QUERY) to 1317,
// context.DeadlineExceeded (max_execution_time) to 3024.
func InterruptedAt(proc string, line int, cause error) error {
	return fmt.Errorf("PROCEDURE %s interrupted: %w", where(proc, line), cause)
}

// InternalErrorAt is a panic recovered from a VM: error 1105.
func InternalErrorAt(proc string, recovered any) *sqlerr.Error {
	return sqlerr.New(sqlerr.ErUnknown, "%s: internal error in procedure runtime: %v", proc, recovered)
}

// CommitWaitFrom maps the wait option of session.commit({wait = ...}).
func CommitWaitFrom(wait string) CommitWait {
	if wait == "complete" {
		return WaitComplete
	}
	return WaitSession
}
