package psm

import (
	"context"
	"errors"

	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// EnvHost is implemented by a host that lends its session's expression
// environment, so conditions and SET of locals evaluate natively instead
// of as statements (sql's procHost does).
type EnvHost interface {
	ExprEnv() *expr.Env
}

// stmt is a compiled statement of the body.
type stmt interface {
	exec(r *runner) error
}

// runner is one execution of a Program: the locals, cursors, active
// handlers and diagnostics area. It lives for one Call.
type runner struct {
	ctx     context.Context
	host    procs.Host
	prog    *Program
	env     *expr.Env
	ectx    expr.Ctx
	locals  []types.Value
	cursors []*cursorState
	frames  []*handlerFrame
	da      diagnostics
	// handling is the conditions of the handlers running, innermost last
	// (RESIGNAL, GET STACKED DIAGNOSTICS).
	handling []*sqlerr.Error
	ret      types.Value
}

// jump unwinds to the labelled statement id: LEAVE (and an EXIT
// handler's end) finishes it, ITERATE starts its next iteration.
type jump struct {
	id      int
	iterate bool
}

func (j *jump) Error() string { return "jump" }

// returned unwinds a function body after RETURN.
type returned struct{}

func (returned) Error() string { return "return" }

// completion is a NOT FOUND that MySQL raises as a completion condition
// (SELECT ... INTO with no row): a handler may take it, and without one
// it is a warning, not an error.
type completion struct{ err *sqlerr.Error }

func (c *completion) Error() string { return c.err.Error() }

// unhandled is a condition no handler in scope took: it passes through
// every enclosing statement list to the caller unchanged.
type unhandled struct{ err error }

func (u *unhandled) Error() string { return u.err.Error() }
func (u *unhandled) Unwrap() error { return u.err }

// runList runs stmts in order. A condition raised by one of them goes to
// the innermost handler that matches (handle); KILL and
// max_execution_time are looked at between statements.
func (r *runner) runList(stmts []stmt) error {
	for _, s := range stmts {
		if err := r.ctx.Err(); err != nil {
			return &unhandled{context.Cause(r.ctx)}
		}
		err := s.exec(r)
		if err == nil {
			continue
		}
		switch e := err.(type) {
		case *jump, returned, *unhandled:
			return err
		case *completion:
			if err = r.handle(e.err); err != nil {
				if u, ok := err.(*unhandled); ok && u.err == error(e.err) && r.env != nil {
					// No handler took it: a warning, and the body goes on.
					r.env.Warn(e.err.Code, "%s", e.err.Message)
					continue
				}
				return err
			}
			continue
		}
		if err = r.handle(err); err != nil {
			return err
		}
	}
	return nil
}

// handle finds the handler for err, innermost block first, and runs it.
// It returns nil to continue after the failed statement (CONTINUE), a
// jump out of the handler's block (EXIT), or err as unhandled.
func (r *runner) handle(err error) error {
	e, ok := sqlerr.As(err)
	if !ok || r.ctx.Err() != nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return &unhandled{err}
	}
	for i := len(r.frames) - 1; i >= 0; i-- {
		f := r.frames[i]
		h := f.match(e)
		if h == nil {
			continue
		}
		saved := r.frames
		// A handler runs with only the handlers of enclosing blocks
		// active, so it cannot catch its own conditions.
		r.frames = r.frames[:i:i]
		r.da.set(e)
		r.handling = append(r.handling, e)
		herr := r.runList([]stmt{h.body})
		r.handling = r.handling[:len(r.handling)-1]
		r.frames = saved
		if herr != nil {
			return herr
		}
		if h.exit {
			return &jump{id: f.blockID}
		}
		return nil
	}
	return &unhandled{err}
}

// diagnostics is the diagnostics area GET DIAGNOSTICS reads: the
// conditions of the last statement and its row count.
type diagnostics struct {
	conds    []*sqlerr.Error
	rowCount int64
}

func (d *diagnostics) set(e *sqlerr.Error) { d.conds = []*sqlerr.Error{e} }

// statementDone clears the area as every statement but GET DIAGNOSTICS
// does in MySQL.
func (d *diagnostics) statementDone(rows int64) { d.conds, d.rowCount = nil, rows }
