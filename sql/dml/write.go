package dml

import (
	"context"

	"github.com/plrun/plrun/sql/coerce"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

func dupError(t *storage.Table, idx int, vals []types.Value) error {
	name, entry := t.Def.KeyEntry(idx, vals)
	return sqlerr.New(sqlerr.ErDupEntry, "Duplicate entry '%s' for key '%s'", entry, name)
}

// pkOf extracts the primary-key values of a full row.
func pkOf(def *storage.TableDef, vals []types.Value) []types.Value {
	pk := def.PrimaryKey()
	out := make([]types.Value, len(pk))
	for i, c := range pk {
		out[i] = vals[c]
	}
	return out
}

// checkUnique verifies vals collide with no other row on any UNIQUE
// index, locking each unique value so concurrent inserts serialize.
func checkUnique(ctx context.Context, x *txn.Txn, t *storage.Table, self *storage.Row, vals []types.Value, only func(idx int) bool) error {
	idx, _, _, err := uniqueCollision(ctx, x, t, self, vals, only, false)
	if err == nil && idx >= 0 {
		return dupError(t, idx, vals)
	}
	return err
}

// uniqueConflict finds the row an INSERT ... ON DUPLICATE KEY UPDATE of
// vals meets on a UNIQUE secondary index (the first, in index order, as
// MySQL takes them), locks it and returns it with its values as this
// transaction reads them under the lock; nil when none.
func uniqueConflict(ctx context.Context, x *txn.Txn, t *storage.Table, self *storage.Row, vals []types.Value) (*storage.Row, []types.Value, error) {
	_, r, v, err := uniqueCollision(ctx, x, t, self, vals, nil, true)
	return r, v, err
}

// uniqueCollision is the first row other than self that vals collide
// with on a UNIQUE secondary index (those only allows, all when nil):
// the index, the row and its values, idx -1 when none. Each unique value
// is locked so concurrent writers serialize; lockRow also takes the
// row's lock and reads it again under it (it may have changed).
func uniqueCollision(ctx context.Context, x *txn.Txn, t *storage.Table, self *storage.Row, vals []types.Value, only func(idx int) bool, lockRow bool) (int, *storage.Row, []types.Value, error) {
	for i, ix := range t.Def.Indexes {
		if !ix.Unique || ix.Primary || (only != nil && !only(i)) {
			continue
		}
		key, ok := t.IndexKey(i, vals)
		if !ok {
			continue
		}
		if err := x.LockKey(ctx, txn.UniqueLockKey(t, i, key)); err != nil {
			return -1, nil, nil, err
		}
		for _, r := range t.IndexCandidates(i, key, t.IndexColumns(i, vals)) {
			if r == self {
				continue
			}
			v := x.Read(t, r)
			if v.Vals == nil {
				continue
			}
			if lockRow {
				if err := x.Lock(ctx, t, r.Key); err != nil {
					return -1, nil, nil, err
				}
				if v = x.Read(t, r); v.Vals == nil {
					continue
				}
			}
			if k, ok := t.IndexKey(i, v.Vals); ok && k == key {
				return i, r, v.Vals, nil
			}
		}
	}
	return -1, nil, nil, nil
}

func rowsEqual(a, b []types.Value) bool {
	for i := range a {
		if a[i].IsNull() != b[i].IsNull() {
			return false
		}
		if !a[i].IsNull() && (a[i].K != b[i].K || types.Compare(a[i], b[i]) != 0 || a[i].String() != b[i].String()) {
			return false
		}
	}
	return true
}

// coerceColumn stores v into column c of def as MySQL does, strictly or
// not (sql/coerce).
func (s *Session) coerceColumn(def *storage.TableDef, c int, v types.Value, rowNum int) (types.Value, error) {
	return coerce.Column(s.Env, def, c, v, rowNum)
}

// strictWrites reports whether the running INSERT or UPDATE converts
// values strictly (sql/coerce).
func (s *Session) strictWrites() bool { return coerce.Strict(s.Env) }
