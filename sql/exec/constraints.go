package exec

import (
	"context"

	"github.com/plrun/plrun/sql/constraint"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

// rulesFor builds t's CHECK and FOREIGN KEY rules for a plan (nil when
// t has none); sc is the plan's scope over t.
func (s *State) rulesFor(t *storage.Table, sc *expr.Scope) (*constraint.Rules, error) {
	return constraint.For(s.txns.Catalog(), t, sc)
}

// fkWriter is the statement's side of foreign key enforcement.
func (s *State) fkWriter(ctx context.Context, x *txn.Txn) *constraint.Writer {
	return &constraint.Writer{Ctx: ctx, Txn: x, Catalog: s.txns.Catalog(), FKChecks: s.ForeignKeyChecks(), Unique: uniqueChanged}
}

// uniqueChanged is checkUnique for an update: only the UNIQUE indexes
// whose value the update changed.
func uniqueChanged(ctx context.Context, x *txn.Txn, t *storage.Table, self *storage.Row, old, vals []types.Value) error {
	return checkUnique(ctx, x, t, self, vals, func(i int) bool {
		a, _ := t.IndexKey(i, old)
		b, _ := t.IndexKey(i, vals)
		return a != b
	})
}
