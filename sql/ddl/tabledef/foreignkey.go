package tabledef

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
)

// BuildForeignKeys adds the FOREIGN KEYs of CREATE TABLE to def — table
// constraints and, as MariaDB 10.5+ does, a column's REFERENCES — with
// InnoDB's names (`t_ibfk_N` when unnamed) and, where no index of def
// starts with the key's columns, an index on them named as InnoDB names
// it (the constraint's name, else the first column's).
func BuildForeignKeys(def *storage.TableDef, x *ast.CreateTableStmt) error {
	type spec struct {
		name string
		cols []string
		ref  *ast.ReferenceDef
	}
	var specs []spec
	for _, cd := range x.Cols {
		for _, o := range cd.Options {
			if o.Tp == ast.ColumnOptionReference && o.Refer != nil {
				// (named by CONSTRAINT name before it, as MariaDB allows:
				// sql/parse's columnrefs.go)
				specs = append(specs, spec{name: o.ConstraintName, cols: []string{cd.Name.Name.O}, ref: o.Refer})
			}
		}
	}
	for _, c := range x.Constraints {
		if c.Tp != ast.ConstraintForeignKey || c.Refer == nil {
			continue
		}
		sp := spec{name: c.Name, ref: c.Refer}
		for _, k := range c.Keys {
			if k.Column == nil {
				return sqlerr.New(sqlerr.ErParse, "You have an error in your SQL syntax; a FOREIGN KEY names columns")
			}
			sp.cols = append(sp.cols, k.Column.Name.O)
		}
		specs = append(specs, sp)
	}
	// ALTER TABLE ... ADD FOREIGN KEY: InnoDB numbers past the table's
	// highest t_ibfk_N, and a name the table has is taken.
	generated := 0
	taken := map[string]bool{}
	had := map[string]bool{}
	for _, fk := range def.ForeignKeys {
		had[strings.ToLower(fk.Name)] = true
		var n int
		if _, err := fmt.Sscanf(strings.TrimPrefix(fk.Name, def.Name+"_ibfk_"), "%d", &n); err == nil && strings.HasPrefix(fk.Name, def.Name+"_ibfk_") {
			generated = max(generated, n)
		}
	}
	for _, sp := range specs {
		if sp.ref.Table == nil {
			return cantCreate(def)
		}
		fk := storage.ForeignKey{Name: sp.name, RefTable: sp.ref.Table.Name.O, RefDB: sp.ref.Table.Schema.O}
		if fk.RefDB == "" {
			fk.RefDB = def.DB
		}
		for _, name := range sp.cols {
			c := def.ColumnIndex(name)
			if c < 0 {
				return sqlerr.New(sqlerr.ErKeyColumnDoesNotExit, "Key column '%s' doesn't exist in table", name)
			}
			fk.Cols = append(fk.Cols, c)
		}
		for _, k := range sp.ref.IndexPartSpecifications {
			if k.Column == nil {
				return cantCreate(def)
			}
			fk.RefCols = append(fk.RefCols, k.Column.Name.O)
		}
		var err error
		if sp.ref.OnDelete != nil {
			if fk.OnDelete, err = refAction(def, sp.ref.OnDelete.ReferOpt); err != nil {
				return err
			}
		}
		if sp.ref.OnUpdate != nil {
			if fk.OnUpdate, err = refAction(def, sp.ref.OnUpdate.ReferOpt); err != nil {
				return err
			}
		}
		if fk.Name == "" {
			generated++
			fk.Name = fmt.Sprintf("%s_ibfk_%d", def.Name, generated)
		}
		if sp.name != "" && indexNamed(def, sp.name) && !HasIndexOn(def.Indexes, fk.Cols) {
			// the key's new index takes the constraint's own name, which
			// an index has: MariaDB's 1061, before the name's own clash (a
			// column's name is numbered instead)
			return sqlerr.New(sqlerr.ErDupKeyName, "Duplicate key name '%s'", sp.name)
		}
		if had[strings.ToLower(fk.Name)] {
			return dupConstraint(def) // InnoDB's: the name is the table's already
		}
		if taken[strings.ToLower(fk.Name)] {
			return sqlerr.New(sqlerr.ErDupKeyName, "Duplicate key name '%s'", fk.Name)
		}
		taken[strings.ToLower(fk.Name)] = true
		if len(fk.Cols) != len(fk.RefCols) || len(fk.Cols) == 0 {
			return cantCreate(def)
		}
		if m := sp.ref.Match; (m == ast.MatchFull || m == ast.MatchPartial) && len(fk.Cols) > 1 {
			// InnoDB (and so MariaDB) accepts MATCH and enforces MATCH
			// SIMPLE whatever it says; on one column they are the same,
			// on more they are not, and plrun does not ignore a clause.
			return sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support MATCH FULL or MATCH PARTIAL on a FOREIGN KEY of more than one column")
		}
		for _, c := range fk.Cols {
			if def.Columns[c].NotNull && (fk.OnDelete == storage.RefSetNull || fk.OnUpdate == storage.RefSetNull) {
				return cantCreate(def)
			}
		}
		if !HasIndexOn(def.Indexes, fk.Cols) {
			name := sp.name
			if name == "" {
				name = def.Columns[fk.Cols[0]].Name
			}
			base := name
			for i := 2; indexNamed(def, name); i++ {
				name = fmt.Sprintf("%s_%d", base, i)
			}
			def.Indexes = append(def.Indexes, storage.IndexDef{Name: name, Cols: append([]int(nil), fk.Cols...)})
		}
		def.ForeignKeys = append(def.ForeignKeys, fk)
	}
	return nil
}

// refAction maps ON DELETE / ON UPDATE. SET DEFAULT is refused: InnoDB
// cannot do it (MariaDB accepts the clause and then drops it, enforcing
// RESTRICT instead, which plrun's rule against accepted-and-ignored
// clauses does not allow).
func refAction(def *storage.TableDef, o ast.ReferOptionType) (storage.RefAction, error) {
	switch o {
	case ast.ReferOptionCascade:
		return storage.RefCascade, nil
	case ast.ReferOptionSetNull:
		return storage.RefSetNull, nil
	case ast.ReferOptionNoAction:
		return storage.RefNoAction, nil
	case ast.ReferOptionSetDefault:
		return "", cantCreate(def)
	}
	return storage.RefRestrict, nil
}

func cantCreate(def *storage.TableDef) error {
	return sqlerr.New(sqlerr.ErCantCreateTable, "Can't create table `%s`.`%s` (errno: 150 \"%s\")", def.DB, def.Name, sqlerr.ErFKIncorrectlyFormed)
}

// HasIndexOn reports whether some index of ixs starts with cols, in
// order: what InnoDB needs to find a key's rows.
func HasIndexOn(ixs []storage.IndexDef, cols []int) bool {
	for _, ix := range ixs {
		if len(ix.Cols) < len(cols) {
			continue
		}
		same := true
		for i, c := range cols {
			if ix.Cols[i] != c {
				same = false
				break
			}
		}
		if same {
			return true
		}
	}
	return false
}

func indexNamed(def *storage.TableDef, name string) bool {
	for _, ix := range def.Indexes {
		if strings.EqualFold(ix.Name, name) {
			return true
		}
	}
	return false
}

// CheckForeignKeys validates def's keys against their parents as InnoDB
// does at CREATE TABLE (errno 150): the parent exists (def itself for a
// self-reference), has the columns, an index starting with them, and
// each pair of columns has the same type (strings may differ in length).
// With foreign_key_checks=0 a missing parent is allowed, as dumps that
// create children first need; a parent that exists is still checked.
func CheckForeignKeys(cat *storage.Catalog, def *storage.TableDef, fkChecks bool) error {
	for i := range def.ForeignKeys {
		fk := &def.ForeignKeys[i]
		if fkNameTaken(cat, def.DB, fk.Name) {
			// InnoDB's constraint names are unique in a database
			return dupConstraint(def)
		}
		var parent *storage.TableDef
		if fk.References(def.DB, def.Name) {
			parent = def
		} else if t := cat.Table(fk.RefDB, fk.RefTable); t != nil {
			parent = t.Def
			fk.RefDB, fk.RefTable = t.Def.DB, t.Def.Name
		}
		if def.Temporary {
			return cantCreate(def)
		}
		if parent == nil {
			if fkChecks {
				return cantCreate(def)
			}
			continue
		}
		var refCols []int
		for j, name := range fk.RefCols {
			c := parent.ColumnIndex(name)
			if c < 0 {
				return cantCreate(def)
			}
			fk.RefCols[j] = parent.Columns[c].Name
			refCols = append(refCols, c)
			if !SameKeyType(def.Columns[fk.Cols[j]], parent.Columns[c]) {
				return cantCreate(def)
			}
		}
		if !HasIndexOn(parent.Indexes, refCols) {
			return cantCreate(def)
		}
	}
	return nil
}

// dupConstraint is InnoDB's error for a foreign key name a table of the
// database has already.
func dupConstraint(def *storage.TableDef) error {
	return sqlerr.New(sqlerr.ErCantCreateTable, "Can't create table `%s`.`%s` (errno: 121 \"Duplicate key on write or update\")", def.DB, def.Name)
}

func SameKeyType(a, b storage.Column) bool {
	if a.Type.IsString() && b.Type.IsString() {
		// character strings pair with character strings, bytes with bytes
		return (a.Type.Base == types.TText) == (b.Type.Base == types.TText) && a.Type.IsBinary() == b.Type.IsBinary() &&
			(a.Type.Base == types.TEnum || a.Type.Base == types.TSet) == (b.Type.Base == types.TEnum || b.Type.Base == types.TSet)
	}
	return a.Type.Base == b.Type.Base && a.Type.Unsigned == b.Type.Unsigned && a.Type.Scale == b.Type.Scale &&
		(a.Type.Base != types.TDecimal || a.Type.Length == b.Type.Length)
}

// fkNameTaken reports whether a table of db has a foreign key named name.
func fkNameTaken(cat *storage.Catalog, db, name string) bool {
	for _, t := range cat.Tables(db) {
		for _, fk := range t.Def.ForeignKeys {
			if strings.EqualFold(fk.Name, name) {
				return true
			}
		}
	}
	return false
}
