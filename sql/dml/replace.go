package dml

import (
	"context"

	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

// replaced is what REPLACE does after deleting a conflicting row: the
// foreign keys referencing it act as on a DELETE.
func (s *Session) replaced(ctx context.Context, x *txn.Txn, pl *insertPlan) func(old []types.Value) error {
	return func(old []types.Value) error {
		if err := pl.rules.AfterWrite(s.fkWriter(ctx, x, pl.rules), old, nil); err != nil {
			return err
		}
		_, err := s.fire(ctx, x, pl.t, "AFTER", "DELETE", old, nil)
		return err
	}
}

// replacing is what REPLACE does before deleting a conflicting row: its
// BEFORE DELETE triggers run.
func (s *Session) replacing(ctx context.Context, x *txn.Txn, t *storage.Table) func(old []types.Value) error {
	return func(old []types.Value) error {
		_, err := s.fire(ctx, x, t, "BEFORE", "DELETE", old, nil)
		return err
	}
}

// replaceUniqueConflicts deletes, for REPLACE, every other row that has
// vals' value in a UNIQUE index, as MySQL does; it returns how many.
func replaceUniqueConflicts(ctx context.Context, x *txn.Txn, t *storage.Table, self *storage.Row, vals []types.Value, deleting, deleted func(old []types.Value) error) (uint64, error) {
	var n uint64
	for i, ix := range t.Def.Indexes {
		if !ix.Unique || ix.Primary {
			continue
		}
		key, ok := t.IndexKey(i, vals)
		if !ok {
			continue
		}
		if err := x.LockKey(ctx, txn.UniqueLockKey(t, i, key)); err != nil {
			return n, err
		}
		for _, r := range t.IndexCandidates(i, key, t.IndexColumns(i, vals)) {
			if r == self {
				continue
			}
			if err := x.Lock(ctx, t, r.Key); err != nil {
				return n, err
			}
			v := x.Read(t, r)
			if v.Vals == nil {
				continue
			}
			if k, ok := t.IndexKey(i, v.Vals); ok && k == key {
				if err := deleting(v.Vals); err != nil {
					return n, err
				}
				x.Write(t, r, nil)
				n++
				if err := deleted(v.Vals); err != nil {
					return n, err
				}
			}
		}
	}
	return n, nil
}
