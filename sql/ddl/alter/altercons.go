package alter

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/plrun/plrun/sql/constraint"
	"github.com/plrun/plrun/sql/ddl/tabledef"
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
			if !tabledef.SameKeyType(def.Columns[np], old.Columns[c]) {
				return sqlerr.New(sqlerr.ErFKColumnCannotChange, "Cannot change column '%s': used in a foreign key constraint '%s'", old.Columns[c].Name, fk.Name)
			}
			nk.Cols[i] = np
		}
		if !tabledef.HasIndexOn(def.Indexes, nk.Cols) {
			return sqlerr.New(sqlerr.ErDropIndexFK, "Cannot drop index '%s': needed in a foreign key constraint", fkIndexName(old, fk.Cols, fk.Name))
		}
		def.ForeignKeys = append(def.ForeignKeys, nk)
	}
	var children []storage.ChildFK
	if !old.Temporary {
		// (a temporary table is no parent: the keys naming its name are
		// the permanent table's it shadows)
		children = cat.ReferencingFKs(old.DB, old.Name)
	}
	for _, ch := range children {
		self := ch.Child == p.old
		if !self {
			p.cons.children = append(p.cons.children, ch.Child.Def.ID)
		} else if renamed {
			for j := range def.ForeignKeys {
				if def.ForeignKeys[j].Name == ch.FK.Name {
					def.ForeignKeys[j].RefDB, def.ForeignKeys[j].RefTable = def.DB, def.Name
				}
			}
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
			if !tabledef.SameKeyType(def.Columns[np], old.Columns[oc]) {
				return sqlerr.New(sqlerr.ErFKColumnCannotChgCh, "Cannot change column '%s': used in a foreign key constraint '%s' of table '%s.%s'", old.Columns[oc].Name, ch.FK.Name, ch.Child.Def.DB, ch.Child.Def.Name)
			}
			if self && !strings.EqualFold(def.Columns[np].Name, old.Columns[oc].Name) {
				// other children follow in SwapAltered
				for j := range def.ForeignKeys {
					if def.ForeignKeys[j].Name == ch.FK.Name {
						def.ForeignKeys[j].RefCols[i] = def.Columns[np].Name
					}
				}
			}
			refs = append(refs, np)
		}
		if len(refs) == len(ch.FK.RefCols) && !tabledef.HasIndexOn(def.Indexes, refs) && p.s.ForeignKeyChecks() {
			return p.parentIndexDropped(ch.FK)
		}
	}
	if err := p.carryChecks(def, newPos, drops); err != nil {
		return err
	}
	return p.addConstraints(cat, def)
}

// carryChecks keeps the CHECKs as MariaDB does: their text follows a
// renamed column; a column's own check goes when its column is dropped or
// redefined (MODIFY / CHANGE give the whole definition again), a table
// check that names only dropped columns goes with them, and one that names
// a dropped column and others is 1054.
func (p *alterPlan) carryChecks(def *storage.TableDef, newPos map[int]int, drops map[string]bool) error {
	old := p.old.Def
	renamed := map[string]string{}
	gone := map[string]bool{}
	for i, c := range old.Columns {
		np, ok := newPos[i]
		switch {
		case !ok:
			gone[strings.ToLower(c.Name)] = true
		case def.Columns[np].Name != c.Name:
			renamed[strings.ToLower(c.Name)] = def.Columns[np].Name
		}
	}
	def.Checks = nil
	for _, ck := range old.Checks {
		if ck.Column == "" && drops[strings.ToLower(ck.Name)] {
			continue
		}
		if ck.Column != "" {
			np, ok := newPos[old.ColumnIndex(ck.Column)]
			if !ok || p.cols[np].redefined {
				continue
			}
		}
		e, err := constraint.ParseCheck(ck.Expr)
		if err != nil {
			return err
		}
		v := &columnRenamer{to: renamed, gone: gone}
		e.Accept(v)
		if v.lost != "" {
			if !v.kept {
				continue // it named only dropped columns
			}
			return sqlerr.New(sqlerr.ErBadField, "Unknown column '%s' in 'CHECK'", v.lost)
		}
		if v.changed {
			ck.Expr = tabledef.CheckText(e)
			if ck.Column != "" {
				// MariaDB keeps the check's name (4025 says `t.a` after a TO a2)
				ck.Column = def.Columns[newPos[old.ColumnIndex(ck.Column)]].Name
			}
		}
		def.Checks = append(def.Checks, ck)
	}
	return nil
}

// columnRenamer renames a CHECK's columns as the ALTER renames them and
// notes the dropped ones it names.
type columnRenamer struct {
	to            map[string]string
	gone          map[string]bool
	lost          string // a dropped column the check names
	kept, changed bool
}

func (v *columnRenamer) Enter(n ast.Node) (ast.Node, bool) {
	c, ok := n.(*ast.ColumnNameExpr)
	if !ok {
		return n, false
	}
	switch l := c.Name.Name.L; {
	case v.gone[l]:
		if v.lost == "" {
			v.lost = c.Name.Name.O
		}
	case v.to[l] != "":
		c.Name.Name = ast.NewCIStr(v.to[l])
		v.kept, v.changed = true, true
	default:
		v.kept = true
	}
	return n, true
}

func (v *columnRenamer) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// parentIndexDropped is MariaDB's error for an ALTER that leaves a
// child's key without the parent index it finds rows by: 1553 naming the
// index, or, for the primary key, InnoDB's refusal of the copy (1025,
// errno 150; MariaDB names its copy `#sql-alter-<pid>-<n>`, plrun by the
// table's id). foreign_key_checks=0 allows it, as in MariaDB.
func (p *alterPlan) parentIndexDropped(fk *storage.ForeignKey) error {
	old := p.old.Def
	var cols []int
	for _, n := range fk.RefCols {
		cols = append(cols, old.ColumnIndex(n))
	}
	for _, ix := range old.Indexes {
		if !tabledef.HasIndexOn([]storage.IndexDef{ix}, cols) {
			continue
		}
		if ix.Primary {
			return sqlerr.New(sqlerr.ErErrorOnRename, "Error on rename of './%s/#sql-alter-%x' to './%s/%s' (errno: 150 \"%s\")", old.DB, old.ID, old.DB, old.Name, sqlerr.ErFKIncorrectlyFormed)
		}
		return sqlerr.New(sqlerr.ErDropIndexFK, "Cannot drop index '%s': needed in a foreign key constraint", ix.Name)
	}
	return sqlerr.New(sqlerr.ErDropIndexFK, "Cannot drop index '%s': needed in a foreign key constraint", fk.Name)
}

// fkIndexName is the index InnoDB would name in 1553: the old table's
// first index on the key's columns, else the key's own name.
func fkIndexName(def *storage.TableDef, cols []int, fallback string) string {
	for _, ix := range def.Indexes {
		if tabledef.HasIndexOn([]storage.IndexDef{ix}, cols) {
			return ix.Name
		}
	}
	return fallback
}
