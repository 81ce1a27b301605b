package constraint

import (
	"context"

	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

// Rules are one table's constraints as a plan holds them: its compiled
// CHECKs and whether any foreign key involves it. A plan is rebuilt after
// any DDL, so they never outlive the schema they were built for.
type Rules struct {
	t          *storage.Table
	checks     []compiledCheck
	referenced bool // some foreign key names t as its parent
}

type compiledCheck struct {
	name string // as error 4025 names it: `t.col` for a column's check
	e    *expr.Expr
}

// For builds t's rules; sc is a scope over t's columns. nil when t has
// no constraints at all, so writes of such tables pay nothing.
func For(cat *storage.Catalog, t *storage.Table, sc *expr.Scope) (*Rules, error) {
	r := &Rules{t: t, referenced: len(cat.ReferencingFKs(t.Def.DB, t.Def.Name)) > 0}
	if len(t.Def.Checks) > 0 {
		saved := sc.Clause
		sc.Clause = "CHECK"
		defer func() { sc.Clause = saved }()
	}
	for _, ck := range t.Def.Checks {
		n, err := ParseCheck(ck.Expr)
		if err != nil {
			return nil, err
		}
		ce, err := sc.Compile(n)
		if err != nil {
			return nil, err
		}
		name := ck.Name
		if ck.Column != "" {
			name = t.Def.Name + "." + ck.Name // the column's name when the check was made
		}
		r.checks = append(r.checks, compiledCheck{name: name, e: ce})
	}
	if !r.referenced && len(r.checks) == 0 && len(t.Def.ForeignKeys) == 0 {
		return nil, nil
	}
	return r, nil
}

// Check evaluates the CHECK constraints on a row about to be written:
// error 4025 for the first that is false (NULL passes).
func (r *Rules) Check(ec *expr.Ctx, vals []types.Value) error {
	if r == nil || len(r.checks) == 0 {
		return nil
	}
	saved := ec.Row
	ec.Row = vals
	defer func() { ec.Row = saved }()
	for _, ck := range r.checks {
		v, err := ck.e.Fn(ec)
		if err != nil {
			return err
		}
		if t, known := v.Truthy(); known && !t {
			return sqlerr.New(sqlerr.ErConstraintFailed, "CONSTRAINT `%s` failed for `%s`.`%s`", ck.name, r.t.Def.DB, r.t.Def.Name)
		}
	}
	return nil
}

// Writer is the statement a row write belongs to: one per statement
// (it caches what references each table for the statement's length).
type Writer struct {
	Ctx      context.Context
	Txn      *txn.Txn
	Catalog  *storage.Catalog
	FKChecks bool // foreign_key_checks
	// Unique checks a cascaded update's row against t's UNIQUE indexes
	// (package dml's check, so the rule and its error are one).
	Unique func(ctx context.Context, x *txn.Txn, t *storage.Table, self *storage.Row, old, vals []types.Value) error

	children map[*storage.Table][]storage.ChildFK // referencing's cache
}

// CheckParents is the child's side of the foreign keys, before a row of
// r's table is written: old is the row before (nil for an insert), vals
// the row to write. Each key whose columns the write sets must find its
// parent row, which stays locked; a row may be its own parent.
func (r *Rules) CheckParents(w *Writer, old, vals []types.Value) error {
	if r == nil || !w.FKChecks || len(r.t.Def.ForeignKeys) == 0 {
		return nil
	}
	return w.checkParents(r.t, old, vals)
}

// AfterWrite is the parent's side, after a row of r's table changed from
// old to vals (nil: deleted): the keys referencing it act on their child
// rows (RESTRICT's 1451, CASCADE, SET NULL).
func (r *Rules) AfterWrite(w *Writer, old, vals []types.Value) error {
	if r == nil || !w.FKChecks || old == nil || !r.referenced {
		return nil
	}
	return w.actOnChildren(r.t, old, vals, 0)
}

// Ignorable reports whether err is a constraint error that INSERT,
// UPDATE or DELETE IGNORE turns into a warning, skipping the row: a
// foreign key's 1451/1452 and (UPDATE IGNORE) a CHECK's 4025.
func Ignorable(err error) (*sqlerr.Error, bool) {
	e, ok := sqlerr.As(err)
	if !ok {
		return nil, false
	}
	switch e.Code {
	case sqlerr.ErNoReferencedRow2, sqlerr.ErRowIsReferenced2, sqlerr.ErConstraintFailed:
		return e, true
	}
	return nil, false
}
