package dml

import (
	"context"

	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

// TriggerHost runs a table's triggers: the sql layer compiles and runs
// their bodies (sql/triggers.go), whose statements join the firing
// statement's transaction as a stored function's do.
type TriggerHost interface {
	// HasTriggers reports whether t has any trigger for event (INSERT,
	// UPDATE or DELETE), of either timing.
	HasTriggers(t *storage.Table, event string) bool
	// FireTriggers runs t's triggers of timing and event for one row, in
	// order; it returns NEW as they left it (nil for DELETE).
	FireTriggers(ctx context.Context, x *txn.Txn, t *storage.Table, timing, event string, old, nw []types.Value) ([]types.Value, error)
}

// fire runs t's triggers for a row, keeping the running statement's own
// state (its foreign-key writer, IGNORE, row count) across the
// statements of the trigger bodies, which run on this State too. The
// table is marked in use meanwhile: a body that writes it is 1442.
func (s *Session) fire(ctx context.Context, x *txn.Txn, t *storage.Table, timing, event string, old, nw []types.Value) ([]types.Value, error) {
	if s.Triggers == nil || !s.Triggers.HasTriggers(t, event) {
		return nw, nil
	}
	fkw, multi, ignore, rows := s.fkw, s.MultiRowWrite, s.IgnoreErrors, s.RowCount
	s.triggering = append(s.triggering, t)
	// OLD and NEW are what the session reads (its time_zone's TIMESTAMPs);
	// a NEW a BEFORE trigger returns is stored again by fireBefore.
	out, err := s.Triggers.FireTriggers(ctx, x, t, timing, event, s.sessionRow(t.Def, old), s.sessionRow(t.Def, nw))
	s.triggering = s.triggering[:len(s.triggering)-1]
	s.fkw, s.MultiRowWrite, s.IgnoreErrors, s.RowCount = fkw, multi, ignore, rows
	if err != nil {
		return nil, err
	}
	if out == nil {
		return nw, nil
	}
	return out, nil
}

// fireBefore runs the BEFORE triggers of a row being written and converts
// the NEW row they may have changed to the columns' types again, with the
// checks a written value gets (NOT NULL, lengths, ranges).
func (s *Session) fireBefore(ctx context.Context, x *txn.Txn, t *storage.Table, event string, old, nw []types.Value) ([]types.Value, error) {
	if s.Triggers == nil || !s.Triggers.HasTriggers(t, event) {
		return nw, nil
	}
	out, err := s.fire(ctx, x, t, "BEFORE", event, old, nw)
	if err != nil || out == nil {
		return out, err
	}
	// A value a trigger set is stored as MariaDB stores SET NEW.col: its
	// errors and warnings say row 0.
	for c := range out {
		if out[c], err = s.coerceColumn(t.Def, c, out[c], 0); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// checkNotTriggering refuses a write to a table whose trigger is running
// the statement (MariaDB's 1442): the firing statement is still using it.
func (s *Session) checkNotTriggering(t *storage.Table) error {
	for _, u := range s.triggering {
		if u.Def.DB == t.Def.DB && u.Def.Name == t.Def.Name {
			return sqlerr.New(sqlerr.ErCantUpdateUsedTableInSF, "Can't update table '%s' in stored function/trigger because it is already used by statement which invoked this stored function/trigger", t.Def.Name)
		}
	}
	return nil
}
