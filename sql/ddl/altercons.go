package ddl

import (
	"strings"

	"github.com/plrun/plrun/sql/constraint"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
)

// carryConstraints makes the old table's FOREIGN KEYs and CHECKs the new
// definition's: a key's columns are positions, so they follow the
// columns to their new places (a renamed child column keeps its key, as
// in InnoDB). What MariaDB refuses is refused with its error; what it
// would rewrite elsewhere (a parent's column renamed under its children,
// a CHECK's text naming a dropped or renamed column) is not built yet
// (1235), never a constraint left naming the wrong column.
func (p *alterPlan) carryConstraints(cat *storage.Catalog, def *storage.TableDef, shape *storage.Reshape) error {
	old := p.old.Def
	newPos := make(map[int]int, len(shape.Source))
	for i, src := range shape.Source {
		if src >= 0 {
			newPos[src] = i
		}
	}
	renamed := !strings.EqualFold(def.Name, old.Name) || !strings.EqualFold(def.DB, old.DB)
	drops, err := p.cons.dropSet(old)
	if err != nil {
		return err
	}
	def.ForeignKeys = nil
	for _, fk := range old.ForeignKeys {
		if drops[strings.ToLower(fk.Name)] {
			continue
		}
		nk := fk
		nk.Cols = make([]int, len(fk.Cols))
		nk.RefCols = append([]string(nil), fk.RefCols...)
		for i, c := range fk.Cols {
			np, ok := newPos[c]
			if !ok {
				return sqlerr.New(sqlerr.ErDropIndexFK, "Cannot drop index '%s': needed in a foreign key constraint", fkIndexName(old, fk.Cols, fk.Name))
			}
			if !sameKeyType(def.Columns[np], old.Columns[c]) {
				return sqlerr.New(sqlerr.ErFKColumnCannotChange, "Cannot change column '%s': used in a foreign key constraint '%s'", old.Columns[c].Name, fk.Name)
			}
			nk.Cols[i] = np
		}
		if !hasIndexOn(def.Indexes, nk.Cols) {
			return sqlerr.New(sqlerr.ErDropIndexFK, "Cannot drop index '%s': needed in a foreign key constraint", fkIndexName(old, fk.Cols, fk.Name))
		}
		def.ForeignKeys = append(def.ForeignKeys, nk)
	}
	for _, ch := range cat.ReferencingFKs(old.DB, old.Name) {
		self := ch.Child == p.old
		if renamed {
			return notYet("RENAME of a table other tables' FOREIGN KEYs reference")
		}
		var refs []int
		for i, name := range ch.FK.RefCols {
			oc := old.ColumnIndex(name)
			if oc < 0 {
				continue // not there before either (foreign_key_checks=0): nothing to keep
			}
			np, ok := newPos[oc]
			if !ok {
				return sqlerr.New(sqlerr.ErFKColumnCannotDropCh, "Cannot drop column '%s': needed in a foreign key constraint '%s' of table `%s`.`%s`", old.Columns[oc].Name, ch.FK.Name, ch.Child.Def.DB, ch.Child.Def.Name)
			}
			if !sameKeyType(def.Columns[np], old.Columns[oc]) {
				return sqlerr.New(sqlerr.ErFKColumnCannotChgCh, "Cannot change column '%s': used in a foreign key constraint '%s' of table '%s.%s'", old.Columns[oc].Name, ch.FK.Name, ch.Child.Def.DB, ch.Child.Def.Name)
			}
			if !strings.EqualFold(def.Columns[np].Name, old.Columns[oc].Name) {
				if !self {
					return notYet("renaming a column other tables' FOREIGN KEYs reference")
				}
				for j := range def.ForeignKeys {
					if def.ForeignKeys[j].Name == ch.FK.Name {
						def.ForeignKeys[j].RefCols[i] = def.Columns[np].Name
					}
				}
			}
			refs = append(refs, np)
		}
		if len(refs) == len(ch.FK.RefCols) && !hasIndexOn(def.Indexes, refs) {
			return notYet("dropping the index other tables' FOREIGN KEYs reference")
		}
	}
	if err := p.carryChecks(def, newPos, drops); err != nil {
		return err
	}
	return p.addConstraints(cat, def)
}

// carryChecks keeps the CHECKs whose columns keep their names and types;
// a column-level check goes with its column when that is dropped, as in
// MariaDB.
func (p *alterPlan) carryChecks(def *storage.TableDef, newPos map[int]int, drops map[string]bool) error {
	old := p.old.Def
	changed := map[string]bool{} // old names of the columns dropped, renamed or retyped
	for i, c := range old.Columns {
		np, ok := newPos[i]
		if !ok || !strings.EqualFold(def.Columns[np].Name, c.Name) || def.Columns[np].Type != c.Type {
			changed[strings.ToLower(c.Name)] = true
		}
	}
	def.Checks = nil
	for _, ck := range old.Checks {
		if ck.Column == "" && drops[strings.ToLower(ck.Name)] {
			continue
		}
		if ck.Column != "" {
			oc := old.ColumnIndex(ck.Column)
			if _, ok := newPos[oc]; !ok {
				continue // dropped with its column
			}
		}
		e, err := constraint.ParseCheck(ck.Expr)
		if err != nil {
			return err
		}
		if firstColumnIn(e, changed) != "" {
			return notYet("ALTER TABLE of a column a CHECK constraint names")
		}
		def.Checks = append(def.Checks, ck)
	}
	return nil
}

// fkIndexName is the index InnoDB would name in 1553: the old table's
// first index on the key's columns, else the key's own name.
func fkIndexName(def *storage.TableDef, cols []int, fallback string) string {
	for _, ix := range def.Indexes {
		if hasIndexOn([]storage.IndexDef{ix}, cols) {
			return ix.Name
		}
	}
	return fallback
}
