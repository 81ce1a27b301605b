package sql

import (
	"context"

	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sql/callout"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sqlerr"
)

// Emit keeps res as one of the running CALL's result sets (sql/callout).
func (h *procHost) Emit(ctx context.Context, res *procs.Result) error {
	if h.s.refuseSets || h.s.output == nil {
		return sqlerr.New(sqlerr.ErSPBadSelect, "PROCEDURE %s can't return a result set in the given context", h.s.procName)
	}
	return MapError(h.s.output.Emit(ctx, res))
}

// Note keeps msg as one of the CALL's notes. Code run outside a CALL (a
// stored function inside a statement) has no CALL output: its notes are
// the running statement's.
func (h *procHost) Note(ctx context.Context, msg string) error {
	note := callout.NoteOf(msg)
	if h.s.output == nil {
		h.s.StmtWarnings++
		if len(h.s.StmtNotes) < expr.MaxNotes {
			h.s.StmtNotes = append(h.s.StmtNotes, note)
		}
		return nil
	}
	h.s.output.Note(note)
	return nil
}

// RefuseCallSets says whether this session's caller cannot take a CALL's
// result sets (a protocol client without CLIENT_MULTI_RESULTS, Call): then
// a procedure's emit fails, as a SELECT in a MySQL procedure does, with
// error 1312 where it is made, and the procedure can handle it or stop.
func (s *Session) RefuseCallSets(refuse bool) { s.refuseSets = refuse }

// FailedCallSets are the result sets a CALL emitted before it failed, when
// the last statement Exec ran was that CALL (nil otherwise): MySQL sends
// them to the client before the error, and so do the server and the REPL.
func (s *Session) FailedCallSets() []*exec.Result { return s.failedSets }
