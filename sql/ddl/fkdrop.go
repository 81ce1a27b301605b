package ddl

import (
	"strings"

	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
)

// dropReferenced is InnoDB's rule for DROP TABLE a, b, ...: the tables
// go in the order named, and one that a foreign key of a table still
// there references (its own self-references aside) is not dropped: error
// 1451 (MariaDB's plain form; MySQL 8 says 3730) once the others are,
// as MariaDB does. foreign_key_checks=0 drops them all.
func dropReferenced(s *exec.State, cat *storage.Catalog, refs []storage.TableRef) ([]storage.TableRef, error) {
	if !s.ForeignKeyChecks() {
		return refs, nil
	}
	gone := map[*storage.Table]bool{}
	var kept []storage.TableRef
	var err error
	for _, r := range refs {
		t := cat.Table(r.DB, r.Name)
		if t == nil {
			continue
		}
		refused := false
		for _, c := range cat.ReferencingFKs(t.Def.DB, t.Def.Name) {
			if c.Child != t && !gone[c.Child] {
				refused = true
			}
		}
		if refused {
			err = sqlerr.New(sqlerr.ErRowIsReferenced2, "Cannot delete or update a parent row: a foreign key constraint fails")
			continue
		}
		gone[t] = true
		kept = append(kept, r)
	}
	return kept, err
}

// refuseTruncateReferenced is InnoDB's 1701: TRUNCATE of a table another
// table's foreign key references (its own self-references do not count),
// unless foreign_key_checks=0.
func refuseTruncateReferenced(s *exec.State, cat *storage.Catalog, t *storage.Table) error {
	if !s.ForeignKeyChecks() {
		return nil
	}
	for _, c := range cat.ReferencingFKs(t.Def.DB, t.Def.Name) {
		if c.Child != t {
			return sqlerr.New(sqlerr.ErTruncateIllegalFK, "Cannot truncate a table referenced in a foreign key constraint (`%s`.`%s`, %s)",
				c.Child.Def.DB, c.Child.Def.Name, c.FK.SQL(c.Child.Def, true))
		}
	}
	return nil
}

// refuseDropDatabase is 1451 for DROP DATABASE of a database one of whose
// tables a table of another database references, as MariaDB refuses it
// (foreign_key_checks=0 drops it).
func refuseDropDatabase(s *exec.State, cat *storage.Catalog, db string) error {
	if !s.ForeignKeyChecks() {
		return nil
	}
	for _, t := range cat.Tables(db) {
		for _, c := range cat.ReferencingFKs(t.Def.DB, t.Def.Name) {
			if !strings.EqualFold(c.Child.Def.DB, t.Def.DB) {
				return sqlerr.New(sqlerr.ErRowIsReferenced2, "Cannot delete or update a parent row: a foreign key constraint fails")
			}
		}
	}
	return nil
}
