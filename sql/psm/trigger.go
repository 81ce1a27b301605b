package psm

import (
	"context"
	"errors"
	"strings"

	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/types"
)

// trigMode is what compiling a trigger body knows: its timing and event,
// which decide whether NEW and OLD exist and whether NEW may be set.
type trigMode struct {
	timing, event string // BEFORE/AFTER, INSERT/UPDATE/DELETE
}

// missing is the error for NEW.col or OLD.col that names no row or no
// column, as MariaDB reports it when the trigger is created.
func (m *trigMode) missing(row, col string) error {
	switch {
	case row == "new" && m.event == "DELETE":
		return newErr(1363, "HY000", "There is no NEW row in on DELETE trigger")
	case row == "old" && m.event == "INSERT":
		return newErr(1363, "HY000", "There is no OLD row in on INSERT trigger")
	}
	return newErr(1054, "42S22", "Unknown column '%s' in '%s'", col, strings.ToUpper(row))
}

// setRowTarget reads the .col of SET NEW.col / SET OLD.col (the NEW or OLD
// already read): only a BEFORE trigger's NEW row may be set.
func (c *compiler) setRowTarget(it setItem, row string) (setItem, error) {
	c.i++ // .
	col, err := c.ident()
	if err != nil {
		return it, err
	}
	row = strings.ToLower(row)
	m := c.trig
	if row == "old" {
		if m.event == "INSERT" {
			return it, m.missing(row, col)
		}
		return it, newErr(1362, "HY000", "Updating of OLD row is not allowed in trigger")
	}
	if m.event == "DELETE" {
		return it, m.missing(row, col)
	}
	if m.timing == "AFTER" {
		return it, newErr(1362, "HY000", "Updating of NEW row is not allowed in after trigger")
	}
	slot, t, ok := c.Local("new." + col)
	if !ok {
		return it, m.missing(row, col)
	}
	it.slot, it.t, it.name, it.row = slot, t, col, true
	return it, nil
}

// rowValue is v as NEW.col keeps it: converted to the column's type when
// it fits, else as given, for the write to report (or adjust) as it does
// for any value.
func rowValue(v types.Value, t types.ColType) types.Value {
	if v.IsNull() {
		return v
	}
	if cv, err := types.Coerce(v, t); err == nil {
		return cv
	}
	return v
}

// Trigger is a compiled trigger body. Its locals start with the table's
// columns as NEW (not for DELETE) and then as OLD (not for INSERT). It
// holds no per-call state.
type Trigger struct {
	p      *Program
	ncols  int
	hasNew bool
	hasOld bool
}

// CompileTrigger compiles a trigger's body (one statement or BEGIN ...
// END) for a table of the columns cols (types colTypes). Errors are
// MariaDB's at CREATE TRIGGER: 1363, 1362, 1054 for NEW/OLD, 1422 for
// transaction control, 1415 for a result set, 1313 for RETURN, 1064.
func CompileTrigger(name, body string, cols []string, colTypes []types.ColType, timing, event string) (*Trigger, error) {
	def := &procs.Definition{Name: name, Body: body}
	c := newCompiler(def, false)
	c.trig = &trigMode{timing: timing, event: event}
	c.pushScope()
	tr := &Trigger{ncols: len(cols), hasNew: event != "DELETE", hasOld: event != "INSERT"}
	for _, row := range []string{"new", "old"} {
		if row == "new" && !tr.hasNew || row == "old" && !tr.hasOld {
			continue
		}
		for i, col := range cols {
			if _, err := c.declareVar(row+"."+col, colTypes[i]); err != nil {
				return nil, err
			}
		}
	}
	p := &Program{name: name}
	var err error
	if p.body, err = c.compileStatement(); err != nil {
		return nil, err
	}
	c.acceptPunct(";")
	if !c.atEnd() || c.peek().kind != tokEOF {
		return nil, c.syntaxError()
	}
	p.nslots, p.ncursors, p.slotNames, p.slotTypes = len(c.slotTypes), c.ncursors, c.slotNames, c.slotTypes
	tr.p = p
	return tr, nil
}

// Fire runs the body for one row: old and nw are the row before and after
// the change (nil where the event has none). It returns NEW as the body
// left it (a BEFORE trigger may have set its columns).
func (t *Trigger) Fire(ctx context.Context, host procs.Host, old, nw []types.Value) ([]types.Value, error) {
	r, err := t.p.newRunner(ctx, host, nil)
	if err != nil {
		return nil, err
	}
	at := 0
	if t.hasNew {
		copy(r.locals[:t.ncols], nw)
		at = t.ncols
	}
	if t.hasOld {
		copy(r.locals[at:at+t.ncols], old)
	}
	err = r.runList([]stmt{t.p.body})
	var u *unhandled
	switch {
	case errors.As(err, &u):
		return nil, u.err
	case err != nil && !isJump(err):
		return nil, err
	}
	if !t.hasNew {
		return nil, nil
	}
	return append([]types.Value(nil), r.locals[:t.ncols]...), nil
}
