package callout

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

// Output is what a running CALL (or DO block) has for its caller besides
// its OK: the result sets it emitted and its notes, in order. Nested
// CALLs add to the outermost one's, as MySQL sends the sets of a
// procedure called by a procedure to the client too.
type Output struct {
	sets    []*exec.Result
	notes   []exec.Note
	noted   int      // notes raised, kept or not
	charges []charge // what the sets hold of the CALL's memory budget
}

type charge struct {
	budget *membudget.Budget
	bytes  int64
}

// Release gives back what the sets were charged, when the CALL is done.
func (o *Output) Release() {
	for _, c := range o.charges {
		c.budget.Shrink(c.bytes)
	}
	o.charges = nil
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
			v, err := GoValue(a)
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

// Finish puts the CALL's sets and notes on its OK result (a nil Output
// adds nothing: a nested CALL's are the outermost one's).
func (o *Output) Finish(r *exec.Result) *exec.Result {
	if o == nil {
		return r
	}
	r.Sets = append(o.sets, r.Sets...)
	r.Notes = append(r.Notes, o.notes...)
	r.Warnings = uint16(min(int(r.Warnings)+o.noted, 65535))
	return r
}

// Failed is what a CALL that failed had emitted: MySQL sends its sets
// before the error, and SHOW WARNINGS lists its notes.
func (o *Output) Failed() (notes []exec.Note, sets []*exec.Result) { return o.notes, o.sets }

// Emit keeps res as one of the CALL's result sets. The rows are charged to
// the CALL's memory budget (from ctx) while the CALL runs (Release gives
// them back).
func (o *Output) Emit(ctx context.Context, res *procs.Result) error {
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
		return err
	}
	o.charges = append(o.charges, charge{b, n})
	o.sets = append(o.sets, r)
	return nil
}

// maxNoteBytes bounds one note's message, as MySQL bounds every message
// (MYSQL_ERRMSG_SIZE, 512 bytes); a longer print is cut at a character.
const maxNoteBytes = 512

// NoteOf is a procedure's print as a note.
func NoteOf(msg string) exec.Note {
	if len(msg) > maxNoteBytes {
		cut := maxNoteBytes
		for cut > 0 && !utf8.RuneStart(msg[cut]) {
			cut--
		}
		msg = msg[:cut]
	}
	return exec.Note{Level: "Note", Code: sqlerr.ErUnknown, Message: msg}
}

// Note keeps a note; past max_error_count notes the rest are dropped
// (and counted in Warnings, as MySQL counts the warnings it does not
// keep).
func (o *Output) Note(note exec.Note) {
	o.noted++
	if len(o.notes) < expr.MaxNotes {
		o.notes = append(o.notes, note)
	}
}

// HasSets reports whether the CALL emitted a result set.
func (o *Output) HasSets() bool { return o != nil && len(o.sets) > 0 }
