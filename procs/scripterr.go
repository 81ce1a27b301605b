package procs

import (
	"fmt"
	"strconv"

	"github.com/plrun/plrun/sqlerr"
)

// Helpers the language runtimes share so that every language reports
// errors the same way. line is the 1-based line of the procedure body; 0
// means unknown.
//
// Two kinds of error leave a procedure:
//   - runtime errors (a failing SQL statement the script did not catch, a
//     Lua or JavaScript runtime error, a compile error): the message says
//     where, "transfer_lua (examples/procs/transfer.lua line 8): ...";
//   - errors the script raised itself (error() in Lua, throw in
//     JavaScript, SIGNAL in SQL): the message is exactly the one raised,
//     as MySQL keeps a SIGNAL's MESSAGE_TEXT, and the place is in the
//     error's Where (SHOW WARNINGS lists it as a note after the error).

// Source is where a procedure's body came from: its name and, for a
// procedure loaded from a file, the file and the file line of the body's
// first line, so that locations are file lines.
type Source struct {
	Proc      string
	File      string
	FirstLine int
}

// SourceOf is def's Source.
func SourceOf(def *Definition) Source {
	return Source{Proc: def.Name, File: def.File, FirstLine: def.FirstLine}
}

// At names body line line: "p line 3", or for a file-loaded procedure
// "p (dir/p.lua line 4)" with the line counted in the file.
func (s Source) At(line int) string {
	if s.File == "" {
		if line <= 0 {
			return s.Proc
		}
		return s.Proc + " line " + strconv.Itoa(line)
	}
	if line <= 0 {
		return s.Proc + " (" + s.File + ")"
	}
	first := s.FirstLine
	if first < 1 {
		first = 1
	}
	return s.Proc + " (" + s.File + " line " + strconv.Itoa(line+first-1) + ")"
}

// SQLErrorAt is e, raised inside the procedure at line and not caught:
// the same code and SQLSTATE, the message prefixed with where it happened
// ("transfer line 7: Duplicate entry '1' for key 'PRIMARY'"). It unwraps to
// e. An error that already has its Where (raised by a procedure this one
// called) passes unchanged, so its message stays the one raised.
func SQLErrorAt(src Source, line int, e *sqlerr.Error) *sqlerr.Error {
	if e.Where != "" {
		return e
	}
	out := sqlerr.Wrap(e, e.Code, "%s: %s", src.At(line), e.Message)
	out.State = e.State
	return out
}

// RaisedAt is an SQL error the script raised itself (error{code=, ...} in
// Lua, throw {code, sqlState, message} in JavaScript), as SIGNAL: code,
// SQLSTATE and message exactly as given, the place in Where.
func RaisedAt(src Source, line int, e *sqlerr.Error) *sqlerr.Error {
	out := *e
	out.Where = src.At(line)
	return &out
}

// ThrownAt is any other value the script raised itself (error("msg"),
// throw "msg", throw new Error("msg")): error 1644, SQLSTATE 45000 and the
// message exactly as raised, like a SIGNAL SQLSTATE '45000' SET
// MESSAGE_TEXT = msg; the place in Where.
func ThrownAt(src Source, line int, msg string) *sqlerr.Error {
	e := sqlerr.New(sqlerr.ErSignalException, "%s", msg)
	e.Where = src.At(line)
	return e
}

// ScriptErrorAt is an uncaught runtime error of the script (not one it
// raised): error 1644, SQLSTATE 45000, the message naming where.
func ScriptErrorAt(src Source, line int, msg string) *sqlerr.Error {
	return sqlerr.New(sqlerr.ErSignalException, "%s: %s", src.At(line), msg)
}

// SyntaxErrorAt is a compile-time error in a procedure body: error 1064.
func SyntaxErrorAt(src Source, line int, msg string) *sqlerr.Error {
	return sqlerr.New(sqlerr.ErParse, "Syntax error in PROCEDURE %s: %s", src.At(line), msg)
}

// InterruptedAt is the error a Program returns when its ctx ended while the
// script ran. It wraps cause (ctx.Err()) and nothing else, so that the sql
// layer maps it: context.Canceled (KILL QUERY) to 1317,
// context.DeadlineExceeded (max_execution_time) to 3024.
func InterruptedAt(src Source, line int, cause error) error {
	return fmt.Errorf("PROCEDURE %s interrupted: %w", src.At(line), cause)
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
