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

// SwapAltered is SwapTable for ALTER TABLE (and its replay): the other
// tables' FOREIGN KEYs that reference old follow its renamed columns (by
// shape: a column from the same old column under a new name) and its new
// name, as InnoDB's do; each such child gets a new Table over its rows
// (the caller has closed their write gates).
func (c *Catalog) SwapAltered(old, nt *Table, shape *Reshape) bool {
	if !c.SwapTable(old, nt) {
		return false
	}
	renamed := map[string]string{}
	if shape != nil {
		for i, src := range shape.Source {
			if src >= 0 && src < len(old.Def.Columns) && old.Def.Columns[src].Name != nt.Def.Columns[i].Name {
				renamed[strings.ToLower(old.Def.Columns[src].Name)] = nt.Def.Columns[i].Name
			}
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for id, t := range c.byID {
		if t == nt {
			continue // its own keys are in its new definition
		}
		var fks []ForeignKey
		for i := range t.Def.ForeignKeys {
			fk := &t.Def.ForeignKeys[i]
			if !fk.References(old.Def.DB, old.Def.Name) {
				continue
			}
			if fks == nil {
				fks = append([]ForeignKey(nil), t.Def.ForeignKeys...)
			}
			nk := &fks[i]
			nk.RefDB, nk.RefTable = nt.Def.DB, nt.Def.Name
			nk.RefCols = append([]string(nil), fk.RefCols...)
			for j, n := range nk.RefCols {
				if to, ok := renamed[strings.ToLower(n)]; ok {
					nk.RefCols[j] = to
				}
			}
		}
		if fks == nil {
			continue
		}
		def := *t.Def
		def.ForeignKeys = fks
		ct := &Table{Def: &def, tableData: t.tableData, rebuiltAt: t.rebuiltAt}
		c.dbs[strings.ToLower(def.DB)][strings.ToLower(def.Name)] = ct
		c.byID[id] = ct
		t.MarkDropped()
	}
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
		nt := &Table{Def: &def, tableData: t.tableData, rebuiltAt: t.rebuiltAt}
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
	c.repointLocked(steps)
	return nil
}

// repointLocked makes the FOREIGN KEYs that referenced a renamed table
// reference its new name, step by step (so RENAME TABLE a TO tmp, b TO a,
// tmp TO b swaps them right), as InnoDB does. A child gets a new Table
// over the same rows with its new definition (definitions are never
// changed in place: writers read them unlocked); the caller has closed
// the children's write gates. Replay runs the same steps, so it gets the
// same keys.
func (c *Catalog) repointLocked(steps []Rename) {
	for _, st := range steps {
		to := TableRef{DB: c.dbName[strings.ToLower(st.To.DB)], Name: st.To.Name}
		for id, t := range c.byID {
			var fks []ForeignKey
			for i := range t.Def.ForeignKeys {
				if t.Def.ForeignKeys[i].References(st.From.DB, st.From.Name) {
					if fks == nil {
						fks = append([]ForeignKey(nil), t.Def.ForeignKeys...)
					}
					fks[i].RefDB, fks[i].RefTable = to.DB, to.Name
				}
			}
			if fks == nil {
				continue
			}
			def := *t.Def
			def.ForeignKeys = fks
			nt := &Table{Def: &def, tableData: t.tableData, rebuiltAt: t.rebuiltAt}
			c.dbs[strings.ToLower(def.DB)][strings.ToLower(def.Name)] = nt
			c.byID[id] = nt
			t.MarkDropped()
		}
	}
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
