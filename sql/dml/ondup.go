package dml

import (
	"context"

	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

// onDuplicate is INSERT ... ON DUPLICATE KEY UPDATE for the row whose
// key the new one (inserting) duplicates: its assignments evaluate over
// the old row, VALUES(col) over the new one;
// it returns the affected-row count, 2 for an updated row and 0 for one
// left as it was.
func (s *Session) onDuplicate(ctx context.Context, x *txn.Txn, t *storage.Table, slot *storage.Row, old, inserting []types.Value, pl *insertPlan, ec *expr.Ctx) (uint64, error) {
	nv := append([]types.Value(nil), old...)
	ec.Row, ec.Inserting = nv, inserting // VALUES(col) reads the row not inserted
	defer func() { ec.Inserting = nil }()
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
	from := slot
	if pk := t.Def.PrimaryKey(); pk != nil && storage.KeyOf(pkOf(t.Def, old)) != storage.KeyOf(pkOf(t.Def, nv)) {
		// The assignments moved the primary key (id = VALUES(id) + 10):
		// the row leaves its slot for the new key's, as an UPDATE's does.
		npk := pkOf(t.Def, nv)
		key := storage.KeyOf(npk)
		if err := x.Lock(ctx, t, key); err != nil {
			return 0, err
		}
		slot = t.Slot(key, npk)
		if v := x.Read(t, slot); v.Vals != nil {
			return 0, dupError(t, -1, nv)
		}
	}
	if err := checkUnique(ctx, x, t, from, nv, nil); err != nil {
		if slot != from {
			t.ForgetIfEmpty(slot)
		}
		return 0, err
	}
	w := s.fkWriter(ctx, x, pl.rules)
	if err := pl.rules.CheckParents(w, old, nv); err != nil {
		if slot != from {
			t.ForgetIfEmpty(slot)
		}
		return 0, err
	}
	if slot != from {
		x.Write(t, from, nil)
	}
	x.Write(t, slot, nv)
	if err := pl.rules.AfterWrite(w, old, nv); err != nil {
		return 0, err
	}
	_, err = s.fire(ctx, x, t, "AFTER", "UPDATE", old, nv)
	return 2, err
}
