package storage

import "strings"

// SwapTable puts nt in old's place (ALTER TABLE's switch), under nt's
// name, which may differ from old's (ALTER TABLE ... RENAME), in one step
// under the catalog's lock: a lookup finds the old table or the new one,
// never neither. false if old is no longer in the catalog or nt's name is
// another table's.
func (c *Catalog) SwapTable(old, nt *Table) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	ots := c.dbs[strings.ToLower(old.Def.DB)]
	ok := strings.ToLower(old.Def.Name)
	if ots[ok] != old {
		return false
	}
	nts, exists := c.dbs[strings.ToLower(nt.Def.DB)]
	nk := strings.ToLower(nt.Def.Name)
	if !exists || (nts[nk] != nil && nts[nk] != old) {
		return false
	}
	old.MarkDropped()
	delete(ots, ok)
	delete(c.byID, old.Def.ID)
	c.installTableLocked(nts, nk, nt)
	return true
}

func (c *Catalog) installTableLocked(ts map[string]*Table, k string, t *Table) {
	if t.Def.ID > c.nextID {
		c.nextID = t.Def.ID
	}
	ts[k] = t
	c.byID[t.Def.ID] = t
}

// Rename is one step of RENAME TABLE.
type Rename struct {
	From TableRef `json:"from"`
	To   TableRef `json:"to"`
}

// RenameFailure says why a RENAME TABLE cannot be done: step At's source
// is missing (Missing) or its target exists.
type RenameFailure struct {
	At      int
	Missing bool
}

// RenameTables runs the steps of RENAME TABLE a TO b, c TO d in order, as
// one step under the catalog's lock: all of them or, if one cannot be
// done, none (the failure says which). Each renamed table is a new Table
// over the same rows, with the same id; the old Table is marked dropped.
// With check set nothing is changed.
func (c *Catalog) RenameTables(steps []Rename, check bool) *RenameFailure {
	c.mu.Lock()
	defer c.mu.Unlock()
	type undo struct {
		fromTS, toTS map[string]*Table
		fromK, toK   string
		old          *Table
	}
	var done []undo
	rollback := func() {
		for i := len(done) - 1; i >= 0; i-- {
			u := done[i]
			delete(u.toTS, u.toK)
			u.fromTS[u.fromK] = u.old
			c.byID[u.old.Def.ID] = u.old
		}
	}
	for i, st := range steps {
		fts := c.dbs[strings.ToLower(st.From.DB)]
		fk := strings.ToLower(st.From.Name)
		t := fts[fk]
		if t == nil {
			rollback()
			return &RenameFailure{At: i, Missing: true}
		}
		tts, ok := c.dbs[strings.ToLower(st.To.DB)]
		tk := strings.ToLower(st.To.Name)
		if !ok {
			rollback()
			return &RenameFailure{At: i, Missing: true}
		}
		if tts[tk] != nil {
			rollback()
			return &RenameFailure{At: i}
		}
		def := *t.Def
		def.DB, def.Name = c.dbName[strings.ToLower(st.To.DB)], st.To.Name
		nt := &Table{Def: &def, tableData: t.tableData}
		delete(fts, fk)
		tts[tk] = nt
		c.byID[def.ID] = nt
		done = append(done, undo{fromTS: fts, toTS: tts, fromK: fk, toK: tk, old: t})
	}
	if check {
		rollback()
		return nil
	}
	for _, u := range done {
		u.old.MarkDropped()
	}
	return nil
}

// Redefined is a new Table over t's rows with definition def (same id,
// same columns and keys in the same places: only names, defaults and
// comments differ), for a schema change that leaves every row as it is.
// The caller swaps it in with SwapTable.
func (t *Table) Redefined(def *TableDef) *Table {
	return &Table{Def: def, tableData: t.tableData}
}

// SameLayout reports whether rows of a can be read as rows of b unchanged:
// the same column types and nullability in the same places, and the same
// keys over the same columns (names may differ).
func SameLayout(a, b *TableDef) bool {
	if len(a.Columns) != len(b.Columns) || len(a.Indexes) != len(b.Indexes) {
		return false
	}
	for i := range a.Columns {
		ca, cb := &a.Columns[i], &b.Columns[i]
		if ca.Type != cb.Type || ca.NotNull != cb.NotNull || ca.AutoIncrement != cb.AutoIncrement {
			return false
		}
	}
	for i := range a.Indexes {
		ia, ib := &a.Indexes[i], &b.Indexes[i]
		if ia.Primary != ib.Primary || ia.Unique != ib.Unique || len(ia.Cols) != len(ib.Cols) {
			return false
		}
		for j := range ia.Cols {
			if ia.Cols[j] != ib.Cols[j] {
				return false
			}
		}
	}
	return true
}

// MaxValue is the largest positive integer column c holds (AUTO_INCREMENT =).
func (t *Table) MaxValue(c int) uint64 { return t.maxValue(c) }
