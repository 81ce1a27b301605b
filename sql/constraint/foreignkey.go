package constraint

import (
	"strings"

	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

// maxCascadeDepth is InnoDB's FK_MAX_CASCADE_DEL: a cascade that would
// reach this level (the statement's own row is level 0) fails the
// statement.
const maxCascadeDepth = 15

// checkParents is the child's side: every foreign key of t whose columns
// the write sets (an insert, or an update that changes them) to values
// none of which is NULL must find its parent row, which it locks.
func (w *Writer) checkParents(t *storage.Table, old, vals []types.Value) error {
	for i := range t.Def.ForeignKeys {
		fk := &t.Def.ForeignKeys[i]
		key, ok := valuesAt(vals, fk.Cols)
		if !ok {
			continue // a NULL in the key references nothing
		}
		if old != nil {
			if prev, ok := valuesAt(old, fk.Cols); ok && sameValues(prev, key) {
				continue
			}
		}
		parent := t
		if !fk.References(t.Def.DB, t.Def.Name) {
			parent = w.Catalog.Table(fk.RefDB, fk.RefTable)
		} else if cols, ok := columnsOf(t.Def, fk.RefCols); ok && matches(vals, cols, key) {
			continue // the row is its own parent
		}
		found := false
		if parent != nil {
			cols, ok := columnsOf(parent.Def, fk.RefCols)
			if ok {
				var err error
				if found, err = w.holdMatch(parent, cols, key); err != nil {
					return err
				}
			}
		}
		if !found {
			return sqlerr.New(sqlerr.ErNoReferencedRow2, "Cannot add or update a child row: a foreign key constraint fails (`%s`.`%s`, %s)",
				t.Def.DB, t.Def.Name, fk.SQL(t.Def, false))
		}
	}
	return nil
}

// holdMatch locks and reads current the rows of t whose columns cols
// hold key, and reports whether one does; the matching row stays locked.
// A primary-key probe locks the key even when no row has it, so a parent
// being inserted by another transaction is waited for.
func (w *Writer) holdMatch(t *storage.Table, cols []int, key []types.Value) (bool, error) {
	rows, err := w.candidates(t, cols, key)
	if err != nil {
		return false, err
	}
	for _, r := range rows {
		if err := w.Txn.Lock(w.Ctx, t, r.Key); err != nil {
			return false, err
		}
		if v := w.Txn.Read(t, r); v.Vals != nil && matches(v.Vals, cols, key) {
			return true, nil
		}
	}
	return false, nil
}

// candidates are the rows of t that may hold key in cols: by primary key
// or an index on exactly cols, else (an index on a longer prefix, which
// InnoDB accepts) the range of the primary key's first column when cols
// start it, or every row. Locks are taken here only for the probes
// that are not rows: a primary key value, a unique index value.
func (w *Writer) candidates(t *storage.Table, cols []int, key []types.Value) ([]*storage.Row, error) {
	if pk := t.Def.PrimaryKey(); sameCols(pk, cols) {
		k := storage.KeyOf(key)
		if err := w.Txn.Lock(w.Ctx, t, k); err != nil {
			return nil, err
		}
		if r := t.Lookup(k); r != nil {
			return []*storage.Row{r}, nil
		}
		return nil, nil
	}
	for i, ix := range t.Def.Indexes {
		if ix.Primary || !sameCols(ix.Cols, cols) {
			continue
		}
		full := make([]types.Value, len(t.Def.Columns))
		for j, c := range cols {
			full[c] = key[j]
		}
		k, ok := t.IndexKey(i, full)
		if !ok {
			return nil, nil
		}
		if ix.Unique {
			if err := w.Txn.LockKey(w.Ctx, txn.UniqueLockKey(t, i, k)); err != nil {
				return nil, err
			}
		}
		return t.IndexCandidates(i, k, key), nil
	}
	var lo, hi *types.Value
	if pk := t.Def.PrimaryKey(); len(pk) > len(cols) && sameCols(pk[:len(cols)], cols) {
		// the key starts the primary key (order_items(order_id, line)):
		// only the rows of its first value
		lo, hi = &key[0], &key[0]
	}
	// Row by row: only the matches are kept.
	var rows []*storage.Row
	t.ScanEach(w.Txn.ID, storage.Newest, lo, hi, func(it storage.ScanItem) bool {
		if it.Vals != nil && matches(it.Vals, cols, key) {
			rows = append(rows, it.Row)
		}
		return true
	})
	return rows, nil
}

// actOnChildren is the parent's side: t's row changed from old to vals
// (nil: deleted). Every foreign key referencing t whose referenced
// values the change removed acts on the child rows that hold them.
func (w *Writer) actOnChildren(t *storage.Table, old, vals []types.Value, depth int) error {
	for _, c := range w.referencing(t) {
		fk := c.FK
		cols, ok := columnsOf(t.Def, fk.RefCols)
		if !ok {
			continue
		}
		oldKey, ok := valuesAt(old, cols)
		if !ok {
			continue
		}
		var newKey []types.Value
		action := fk.OnDelete
		if vals != nil {
			newKey, _ = valuesAt(vals, cols)
			if newKey != nil && sameValues(oldKey, newKey) {
				continue
			}
			action = fk.OnUpdate
		}
		if err := w.actOn(c.Child, fk, oldKey, vals == nil, newKey, action, depth); err != nil {
			return err
		}
	}
	return nil
}

func (w *Writer) actOn(child *storage.Table, fk *storage.ForeignKey, oldKey []types.Value, deleted bool, newKey []types.Value, action storage.RefAction, depth int) error {
	rows, err := w.candidates(child, fk.Cols, oldKey)
	if err != nil {
		return err
	}
	for _, r := range rows {
		if err := w.Txn.Lock(w.Ctx, child, r.Key); err != nil {
			return err
		}
		v := w.Txn.Read(child, r)
		if v.Vals == nil || !matches(v.Vals, fk.Cols, oldKey) {
			continue
		}
		if action == storage.RefRestrict || action == storage.RefNoAction {
			return sqlerr.New(sqlerr.ErRowIsReferenced2, "Cannot delete or update a parent row: a foreign key constraint fails (`%s`.`%s`, %s)",
				child.Def.DB, child.Def.Name, fk.SQL(child.Def, false))
		}
		if depth+1 >= maxCascadeDepth {
			// InnoDB's DB_FOREIGN_EXCEED_MAX_CASCADE, as MariaDB reports it
			return sqlerr.New(sqlerr.ErGetErrmsg, "Got error 193 '`%s`.`%s`, %s' from InnoDB", child.Def.DB, child.Def.Name, fk.SQL(child.Def, false))
		}
		if action == storage.RefCascade && deleted {
			w.Txn.Write(child, r, nil)
			if err := w.actOnChildren(child, v.Vals, nil, depth+1); err != nil {
				return err
			}
			continue
		}
		nv := append([]types.Value(nil), v.Vals...)
		for j, col := range fk.Cols {
			if action == storage.RefSetNull || newKey == nil {
				nv[col] = types.Null
				continue
			}
			// The parent's new value must fit the child's column (a
			// VARCHAR(5) child of a VARCHAR(20) parent), else InnoDB
			// refuses the parent's update.
			cv, err := types.Coerce(newKey[j], child.Def.Columns[col].Type)
			if err != nil {
				return sqlerr.New(sqlerr.ErRowIsReferenced2, "Cannot delete or update a parent row: a foreign key constraint fails (`%s`.`%s`, %s)",
					child.Def.DB, child.Def.Name, fk.SQL(child.Def, false))
			}
			nv[col] = cv
		}
		if err := w.rewrite(child, r, v.Vals, nv); err != nil {
			if e, ok := sqlerr.As(err); ok && e.Code == sqlerr.ErDupEntry {
				parent := w.Catalog.Table(fk.RefDB, fk.RefTable)
				return sqlerr.New(sqlerr.ErForeignDuplicateKey, "Foreign key constraint for table '%s', record '%s' would lead to a duplicate entry in table '%s', key '%s'",
					tableName(parent, fk), joinValues(pick(nv, fk.Cols)), child.Def.Name, dupKeyName(e.Message))
			}
			return err
		}
		if err := w.actOnChildren(child, v.Vals, nv, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// referencing is Catalog.ReferencingFKs of t, looked up once per
// statement (a Writer is one statement's).
func (w *Writer) referencing(t *storage.Table) []storage.ChildFK {
	if c, ok := w.children[t]; ok {
		return c
	}
	if w.children == nil {
		w.children = map[*storage.Table][]storage.ChildFK{}
	}
	c := w.Catalog.ReferencingFKs(t.Def.DB, t.Def.Name)
	w.children[t] = c
	return c
}

// rewrite stores a cascaded update of child row r, moving it to its new
// primary key when the key's columns changed.
func (w *Writer) rewrite(t *storage.Table, r *storage.Row, old, nv []types.Value) error {
	pk := t.Def.PrimaryKey()
	if pk == nil || sameValues(pick(old, pk), pick(nv, pk)) {
		if err := w.Unique(w.Ctx, w.Txn, t, r, old, nv); err != nil {
			return err
		}
		w.Txn.Write(t, r, nv)
		return nil
	}
	key := pick(nv, pk)
	k := storage.KeyOf(key)
	if err := w.Txn.Lock(w.Ctx, t, k); err != nil {
		return err
	}
	ns := t.Slot(k, key)
	if w.Txn.Read(t, ns).Vals != nil {
		return sqlerr.New(sqlerr.ErDupEntry, "Duplicate entry '%s' for key 'PRIMARY'", joinValues(key))
	}
	if err := w.Unique(w.Ctx, w.Txn, t, r, old, nv); err != nil {
		t.ForgetIfEmpty(ns)
		return err
	}
	w.Txn.Write(t, r, nil)
	w.Txn.Write(t, ns, nv)
	return nil
}

func tableName(t *storage.Table, fk *storage.ForeignKey) string {
	if t != nil {
		return t.Def.Name
	}
	return fk.RefTable
}

// dupKeyName is the key a 1062 message names ("... for key 'k'").
func dupKeyName(msg string) string {
	i := strings.LastIndex(msg, "for key '")
	if i < 0 {
		return "PRIMARY"
	}
	return strings.TrimSuffix(msg[i+len("for key '"):], "'")
}
