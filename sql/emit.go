package sql

import (
	"context"
	"unicode/utf8"

	"github.com/plrun/plrun/membudget"
	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// callOutput is what a running CALL (or DO block) has for its caller
// besides its OK: the result sets it emitted and its notes, in order.
// Nested CALLs add to the outermost one's (Session.output), as MySQL sends
// the sets of a procedure called by a procedure to the client too.
type callOutput struct {
	sets    []*exec.Result
	notes   []exec.Note
	noted   int      // notes raised, kept or not
	charges []charge // what the sets hold of the CALL's memory budget
}

type charge struct {
	budget *membudget.Budget
	bytes  int64
}

// release gives back what the sets were charged, when the CALL is done.
func (o *callOutput) release() {
	for _, c := range o.charges {
		c.budget.Shrink(c.bytes)
	}
	o.charges = nil
}

// maxNoteBytes bounds one note's message, as MySQL bounds every message
// (MYSQL_ERRMSG_SIZE, 512 bytes); a longer print is cut at a character.
const maxNoteBytes = 512

// Emit keeps res as one of the CALL's result sets. The rows are charged to
// the CALL's memory budget while the CALL runs (release gives them back).
func (h *procHost) Emit(ctx context.Context, res *procs.Result) error {
	if h.s.refuseSets || h.s.output == nil {
		return sqlerr.New(sqlerr.ErSPBadSelect, "PROCEDURE %s can't return a result set in the given context", h.s.procName)
	}
	if res == nil {
		return nil
	}
	r, err := emittedSet(res)
	if err != nil {
		return err
	}
	n := int64(0)
	for _, row := range r.Rows {
		n += expr.RowBytes + int64(len(row))*expr.ValueBytes
		for _, v := range row {
			n += expr.ValuePayload(v)
		}
	}
	b := membudget.From(ctx)
	if err := b.Grow(n); err != nil {
		return MapError(err)
	}
	h.s.output.charges = append(h.s.output.charges, charge{b, n})
	h.s.output.sets = append(h.s.output.sets, r)
	return nil
}

// Note keeps msg as one of the CALL's notes; past max_error_count notes
// the rest are dropped (and counted in Warnings, as MySQL counts the
// warnings it does not keep).
//
// Code run outside a CALL (a stored function inside a statement) has no
// CALL output: its notes are the running statement's.
func (h *procHost) Note(ctx context.Context, msg string) error {
	if len(msg) > maxNoteBytes {
		cut := maxNoteBytes
		for cut > 0 && !utf8.RuneStart(msg[cut]) {
			cut--
		}
		msg = msg[:cut]
	}
	note := exec.Note{Level: "Note", Code: sqlerr.ErUnknown, Message: msg}
	out := h.s.output
	if out == nil {
		h.s.StmtWarnings++
		if len(h.s.StmtNotes) < expr.MaxNotes {
			h.s.StmtNotes = append(h.s.StmtNotes, note)
		}
		return nil
	}
	out.noted++
	if len(out.notes) < expr.MaxNotes {
		out.notes = append(out.notes, note)
	}
	return nil
}

// emittedSet is res as a result set: the statement's own result when res
// came unchanged from Exec (so its column types stay), else columns typed
// from their first non-NULL value.
func emittedSet(res *procs.Result) (*exec.Result, error) {
	if r, ok := res.Origin.(*exec.Result); ok && r.IsResultSet() && len(r.Rows) == len(res.Rows) {
		return &exec.Result{Columns: r.Columns, Rows: r.Rows}, nil
	}
	if len(res.Columns) == 0 {
		return nil, sqlerr.New(sqlerr.ErWrongArguments, "Incorrect arguments to emit: a result set needs at least one column")
	}
	r := &exec.Result{Columns: make([]exec.Column, len(res.Columns)), Rows: make([][]types.Value, len(res.Rows))}
	for i, row := range res.Rows {
		if len(row) != len(res.Columns) {
			return nil, sqlerr.New(sqlerr.ErWrongArguments, "Incorrect arguments to emit: row %d has %d values for %d columns", i+1, len(row), len(res.Columns))
		}
		vs := make([]types.Value, len(row))
		for j, a := range row {
			v, err := goValue(a)
			if err != nil {
				return nil, err
			}
			vs[j] = v
		}
		r.Rows[i] = vs
	}
	for j, name := range res.Columns {
		col := exec.Column{Name: name, Type: expr.TVarchar}
		for _, row := range r.Rows {
			if row[j].K != types.KindNull {
				col.Type = expr.TypeOfValue(row[j])
				break
			}
		}
		r.Columns[j] = col
	}
	return r, nil
}

// finish puts the CALL's sets and notes on its OK result.
func (o *callOutput) finish(r *exec.Result) *exec.Result {
	if o == nil {
		return r
	}
	r.Sets = append(o.sets, r.Sets...)
	r.Notes = append(r.Notes, o.notes...)
	r.Warnings = uint16(min(int(r.Warnings)+o.noted, 65535))
	return r
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
