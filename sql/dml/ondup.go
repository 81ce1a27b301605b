package dml

import (
	"context"

	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

// onDuplicate is INSERT ... ON DUPLICATE KEY UPDATE for the row whose
// key the new one duplicates: its assignments evaluate over the old row;
// it returns the affected-row count, 2 for an updated row and 0 for one
// left as it was.
func (s *Session) onDuplicate(ctx context.Context, x *txn.Txn, t *storage.Table, slot *storage.Row, old []types.Value, pl *insertPlan, ec *expr.Ctx) (uint64, error) {
	nv := append([]types.Value(nil), old...)
	ec.Row = nv
	for _, a := range pl.onDup {
		v, err := a.e.Fn(ec)
		if err != nil {
			return 0, err
		}
		if nv[a.col], err = s.coerceColumn(t.Def, a.col, v, 1); err != nil {
			return 0, err
		}
	}
	// The row is updated: its UPDATE triggers run, not the AFTER INSERT
	// ones (as in MySQL).
	nv, err := s.fireBefore(ctx, x, t, "UPDATE", old, nv)
	if err != nil {
		return 0, err
	}
	if rowsEqual(old, nv) {
		_, err := s.fire(ctx, x, t, "AFTER", "UPDATE", old, nv)
		return 0, err
	}
	s.touchOnUpdate(t.Def, nv, pl.onDup)
	if err := pl.rules.Check(ec, nv); err != nil {
		return 0, err
	}
	if err := checkUnique(ctx, x, t, slot, nv, nil); err != nil {
		return 0, err
	}
	w := s.fkWriter(ctx, x, pl.rules)
	if err := pl.rules.CheckParents(w, old, nv); err != nil {
		return 0, err
	}
	x.Write(t, slot, nv)
	if err := pl.rules.AfterWrite(w, old, nv); err != nil {
		return 0, err
	}
	_, err = s.fire(ctx, x, t, "AFTER", "UPDATE", old, nv)
	return 2, err
}
