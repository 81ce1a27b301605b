package exec

import (
	"strings"

	"github.com/plrun/plrun/storage"
)

// A session's temporary tables (CREATE TEMPORARY TABLE) live here, not in
// the catalog: only the session's own name lookups (ResolveTable) find
// them, before the catalog's, so one shadows a permanent table of its
// name; nothing else — other sessions, SHOW TABLES, snapshots, the log —
// ever sees them. Their rows are written in the session's transactions
// like any others (rollback undoes them), and txn leaves them out of the
// log. They go when the session closes or is reset.

func tempKey(db, name string) string { return strings.ToLower(db) + "\x00" + strings.ToLower(name) }

// TempTable is the session's temporary table db.name, or nil.
func (s *State) TempTable(db, name string) *storage.Table {
	if len(s.temps) == 0 {
		return nil
	}
	return s.temps[tempKey(db, name)]
}

// AddTempTable installs a temporary table built from def (def.Temporary
// set); false if the session has one of that name.
func (s *State) AddTempTable(def *storage.TableDef) (*storage.Table, bool) {
	k := tempKey(def.DB, def.Name)
	if s.temps[k] != nil {
		return nil, false
	}
	if s.temps == nil {
		s.temps = map[string]*storage.Table{}
	}
	t := storage.NewTable(def)
	s.temps[k] = t
	return t, true
}

// ReplaceTempTable swaps the temporary table of def's name for a new empty
// one built from def (TRUNCATE).
func (s *State) ReplaceTempTable(def *storage.TableDef) {
	k := tempKey(def.DB, def.Name)
	if old := s.temps[k]; old != nil {
		old.MarkDropped()
	}
	s.temps[k] = storage.NewTable(def)
}

// DropTempTable drops the session's temporary table db.name; false if
// there is none.
func (s *State) DropTempTable(db, name string) bool {
	k := tempKey(db, name)
	t := s.temps[k]
	if t == nil {
		return false
	}
	t.MarkDropped()
	delete(s.temps, k)
	return true
}

// DropTempTables drops all of the session's temporary tables (disconnect,
// COM_RESET_CONNECTION, COM_CHANGE_USER). DROP DATABASE leaves them, as
// MariaDB does.
func (s *State) DropTempTables() {
	for k, t := range s.temps {
		t.MarkDropped()
		delete(s.temps, k)
	}
}

// SwapTempTable puts nt in the place of the session's temporary table old,
// under nt's name (ALTER TABLE or RENAME TABLE of it: a rebuilt table, or
// old's rows under a new definition). False, and nothing changed, when old
// is not the session's or another of its temporary tables has nt's name.
func (s *State) SwapTempTable(old, nt *storage.Table) bool {
	from, to := tempKey(old.Def.DB, old.Def.Name), tempKey(nt.Def.DB, nt.Def.Name)
	if s.temps[from] != old || (to != from && s.temps[to] != nil) {
		return false
	}
	delete(s.temps, from)
	old.MarkDropped()
	s.temps[to] = nt
	return true
}
