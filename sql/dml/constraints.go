package dml

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
func (s *Session) rulesFor(t *storage.Table, sc *expr.Scope) (*constraint.Rules, error) {
	return constraint.For(s.Catalog(), t, sc)
}

// fkWriter is the running statement's side of foreign key enforcement:
// one per statement (beginWrites starts it), made on first use; nil for a
// table without constraints (rules nil), whose writes then cost nothing.
func (s *Session) fkWriter(ctx context.Context, x *txn.Txn, rules *constraint.Rules) *constraint.Writer {
	if rules == nil {
		return nil
	}
	if w := s.fkw; w != nil && w.Txn == x {
		w.Ctx = ctx
		return w
	}
	s.fkw = &constraint.Writer{Ctx: ctx, Txn: x, Catalog: s.Catalog(), FKChecks: s.ForeignKeyChecks(), Unique: uniqueChanged}
	return s.fkw
}

// beginWrites starts a writing statement: the previous one's Writer (and
// what it cached of the schema and foreign_key_checks) is dropped.
func (s *Session) beginWrites() { s.fkw = nil }

// BeginWrites starts a writing statement (before its plan is found).
func (s *Session) BeginWrites() { s.beginWrites() }

// checkUpdatedRow checks an updated row before it is written: its CHECKs,
// then the parents of the foreign keys the update changes.
func (s *Session) checkUpdatedRow(ctx context.Context, x *txn.Txn, rules *constraint.Rules, ec *expr.Ctx, old, nv []types.Value) error {
	if rules == nil {
		return nil
	}
	if err := rules.Check(ec, nv); err != nil {
		return err
	}
	return rules.CheckParents(s.fkWriter(ctx, x, rules), old, nv)
}

// ignoreConstraint is UPDATE or DELETE IGNORE meeting a constraint error:
// a warning, and the row is skipped, as MariaDB does.
func (s *Session) ignoreConstraint(err error) bool {
	e, ok := constraint.Ignorable(err)
	if !ok || !s.IgnoreErrors {
		return false
	}
	s.Warn(e.Code, "%s", e.Message)
	return true
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
