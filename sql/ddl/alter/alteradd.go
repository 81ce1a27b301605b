package alter

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/constraint"
	"github.com/plrun/plrun/sql/ddl/tabledef"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

// consChange is what ALTER TABLE's specs do to the FOREIGN KEYs and
// CHECKs: drops first (so DROP CONSTRAINT a, ADD CONSTRAINT a works, as
// in MariaDB), then adds, whose keys and checks the rows must satisfy.
type consChange struct {
	drops     []consDrop
	addFKs    []*ast.Constraint
	addChecks []*ast.Constraint
	colChecks []*ast.ColumnDef     // column definitions with a CHECK (ADD, MODIFY, CHANGE)
	newFKs    []storage.ForeignKey // the added keys, resolved (carryConstraints)
	newChecks []storage.Check
	gated     []uint64 // the parents whose write gates are closed (parentIDs)
	children  []uint64 // the tables whose keys reference this one (SwapAltered repoints them)
}

// gateIDs are the tables whose writers wait for the switch: the table,
// the parents of its added keys, and its children.
func (p *alterPlan) gateIDs(cat *storage.Catalog) []uint64 {
	ids := append([]uint64{p.old.Def.ID}, p.cons.parentIDs(cat, p.old)...)
	for _, id := range p.cons.children {
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids
}

type consDrop struct {
	name string
	fk   bool // DROP FOREIGN KEY (else DROP CONSTRAINT: a key or a check)
}

// dropSet is the names of the constraints the ALTER drops the constraint name, and
// refuses (1091) a drop that names none of old's.
func (c *consChange) dropSet(old *storage.TableDef) (map[string]bool, error) {
	set := map[string]bool{}
	for _, d := range c.drops {
		found := false
		for _, fk := range old.ForeignKeys {
			found = found || strings.EqualFold(fk.Name, d.name)
		}
		if !d.fk {
			for _, ck := range old.Checks {
				found = found || (ck.Column == "" && strings.EqualFold(ck.Name, d.name))
			}
		}
		if !found || set[strings.ToLower(d.name)] {
			what := "CONSTRAINT"
			if d.fk {
				what = "FOREIGN KEY"
			}
			return nil, sqlerr.New(sqlerr.ErCantDropFieldOrKey, "Can't DROP %s `%s`; check that it exists", what, d.name)
		}
		set[strings.ToLower(d.name)] = true
	}
	return set, nil
}

// addConstraints adds the new CHECKs and FOREIGN KEYs to def as CREATE
// TABLE builds them (names, the key's index), and validates the keys
// against their parents (errno 150 / 121).
func (p *alterPlan) addConstraints(cat *storage.Catalog, def *storage.TableDef) error {
	c := &p.cons
	if len(c.colChecks) > 0 {
		// a column's own check: not checked against the rows, as in MariaDB
		if err := tabledef.BuildChecks(def, &ast.CreateTableStmt{Cols: c.colChecks}, p.s.Functions()); err != nil {
			return err
		}
	}
	if len(c.addChecks) > 0 {
		n := len(def.Checks)
		if err := tabledef.BuildChecks(def, &ast.CreateTableStmt{Constraints: c.addChecks}, p.s.Functions()); err != nil {
			return err
		}
		c.newChecks = def.Checks[n:]
	}
	if len(c.addFKs) > 0 {
		n := len(def.ForeignKeys)
		if err := tabledef.BuildForeignKeys(def, &ast.CreateTableStmt{Constraints: c.addFKs}); err != nil {
			return err
		}
		added := *def
		added.ForeignKeys = def.ForeignKeys[n:]
		if err := tabledef.CheckForeignKeys(cat, &added, p.s.ForeignKeyChecks()); err != nil {
			return err
		}
		c.newFKs = def.ForeignKeys[n:]
	}
	return nil
}

// parentIDs are the tables the added keys reference (t itself aside):
// their write gates close with t's while the rows are checked, so no
// parent row goes between the check and the switch.
func (c *consChange) parentIDs(cat *storage.Catalog, t *storage.Table) []uint64 {
	var ids []uint64
	for _, fk := range c.newFKs {
		if pt := cat.Table(fk.RefDB, fk.RefTable); pt != nil && pt != t {
			ids = append(ids, pt.Def.ID)
		}
	}
	c.gated = ids
	return ids
}

// checkRows checks the rebuilt table's rows against the added CHECKs
// (4025) and, with foreign_key_checks on, the added FOREIGN KEYs (1452),
// before the switch: a refused ALTER changes nothing.
func (p *alterPlan) checkRows(ctx context.Context, cat *storage.Catalog, nt *storage.Table) error {
	c := &p.cons
	fks := c.newFKs
	if !p.s.ForeignKeyChecks() {
		fks = nil
	}
	if len(c.newChecks) == 0 && len(fks) == 0 {
		return nil
	}
	if len(c.newChecks) > 0 {
		if err := p.checkCheckRows(ctx, cat, nt); err != nil {
			return err
		}
	}
	tmp := fmt.Sprintf("#sql-alter-%x", nt.Def.ID)
	for i := range fks {
		fk := &fks[i]
		parent := nt
		if !fk.References(nt.Def.DB, nt.Def.Name) {
			parent = cat.Table(fk.RefDB, fk.RefTable)
			if parent == nil || parent.Dropped() || !slices.Contains(c.gated, parent.Def.ID) {
				return txn.ErrTableChanged // the parent changed before its gate closed: run again
			}
		}
		keys := map[string]bool{}
		var refCols []int
		for _, n := range fk.RefCols {
			refCols = append(refCols, parent.Def.ColumnIndex(n))
		}
		eachCommitted(parent, func(vals []types.Value) error {
			if k, ok := keyAt(vals, refCols); ok {
				keys[k] = true
			}
			return nil
		})
		err := eachCommitted(nt, func(vals []types.Value) error {
			if k, ok := keyAt(vals, fk.Cols); ok && !keys[k] {
				shown := *fk
				if rest, gen := strings.CutPrefix(fk.Name, nt.Def.Name+"_ibfk_"); gen {
					shown.Name = tmp + "_ibfk_" + rest // InnoDB names it after the copy
				}
				return sqlerr.New(sqlerr.ErNoReferencedRow2, "Cannot add or update a child row: a foreign key constraint fails (`%s`.`%s`, %s)", nt.Def.DB, tmp, shown.SQL(nt.Def, false))
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// eachCommitted calls fn with the values of each of t's newest committed
// rows, in key order, one by one, until fn fails.
func eachCommitted(t *storage.Table, fn func(vals []types.Value) error) error {
	var err error
	t.ScanEach(0, storage.Newest, nil, nil, func(it storage.ScanItem) bool {
		if it.Vals != nil {
			err = fn(it.Vals)
		}
		return err == nil
	})
	return err
}

// checkCheckRows evaluates the added CHECKs on every row.
func (p *alterPlan) checkCheckRows(ctx context.Context, cat *storage.Catalog, nt *storage.Table) error {
	def := *nt.Def
	def.Checks = p.cons.newChecks
	def.ForeignKeys = nil
	t := storage.NewTable(&def)
	sc := &expr.Scope{Table: t, Alias: def.Name, DB: def.DB, Funcs: tabledef.CheckFuncs(p.s.Functions())}
	rules, err := constraint.For(cat, t, sc)
	if err != nil {
		return err
	}
	ec := &expr.Ctx{Env: &p.s.Env, Context: ctx}
	return eachCommitted(nt, func(vals []types.Value) error { return rules.Check(ec, vals) })
}

// keyAt is the index key of row's values at cols; ok is false when one
// is NULL (MATCH SIMPLE: such a row references nothing).
func keyAt(row []types.Value, cols []int) (string, bool) {
	vals := make([]types.Value, len(cols))
	for i, c := range cols {
		if c < 0 || row[c].IsNull() {
			return "", false
		}
		vals[i] = row[c]
	}
	return storage.KeyOf(vals), true
}
