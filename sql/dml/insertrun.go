package dml

import (
	"context"
	"fmt"

	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/query"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

// runInsert runs a compiled INSERT in x.
func (s *Session) runInsert(ctx context.Context, x *txn.Txn, pl *insertPlan, args []types.Value) (*query.Result, error) {
	t := pl.t
	if err := s.checkNotTriggering(t); err != nil {
		return nil, err
	}
	def := t.Def
	nrows := len(pl.rows)
	// LoadingRows is this INSERT's alone, not its triggers' or functions'.
	loading := s.LoadingRows
	s.LoadingRows = false
	s.MultiRowWrite, s.IgnoreErrors = nrows > 1 || pl.source != nil || loading, pl.ignore
	defer func() { s.MultiRowWrite, s.IgnoreErrors = false, false }()
	ec := &expr.Ctx{Env: s.Env, Args: args, Strict: s.strictWrites(), Context: ctx, Txn: x}
	var affected, firstID uint64
	var lastGiven uint64 // the last AUTO_INCREMENT value given explicitly
	var dups, warnings uint64
	var notes []query.Note
	var selected [][]types.Value
	if pl.source != nil {
		r, err := pl.source.Exec(query.RunCtx{Ctx: ctx, Txn: x, Env: s.Env, Args: args, Strict: ec.Strict})
		if err != nil {
			return nil, err
		}
		selected, nrows = r.Rows, len(r.Rows)
	}
	for ri := 0; ri < nrows; ri++ {
		vals := make([]types.Value, len(def.Columns))
		given := make([]bool, len(def.Columns))
		if selected != nil {
			for i, c := range pl.cols {
				vals[c], given[c] = selected[ri][i], true
			}
		}
		for i, ce := range pl.rowExprs(ri) {
			c := pl.cols[i]
			if ce == nil {
				continue
			}
			v, err := ce.Fn(ec)
			if err != nil {
				return nil, err
			}
			vals[c], given[c] = v, true
		}
		genID, err := s.fillRow(t, vals, given, ri+1)
		if err != nil {
			return nil, err
		}
		if genID > 0 && firstID == 0 {
			firstID = genID
		}
		if genID == 0 {
			if id := givenAutoID(def, vals); id > 0 {
				lastGiven = id
			}
		}
		if vals, err = s.beforeInsert(ctx, x, t, vals, genID); err != nil {
			return nil, err
		}
		if pl.check != nil {
			ec.Row = vals
			if ok, err := expr.EvalBool(pl.check, ec); err != nil {
				return nil, err
			} else if !ok {
				return nil, pl.view.CheckFailed()
			}
		}
		n, err := s.insertRow(ctx, x, t, vals, pl, ec)
		if e, ok := sqlerr.As(err); ok && pl.ignore && (e.Code == sqlerr.ErDupEntry || e.Code == sqlerr.ErNoReferencedRow2) {
			// INSERT IGNORE skips a duplicate row with a warning, and a
			// child row without its parent too (counted as a duplicate, as
			// MariaDB counts it; it failed before anything was written).
			dups++
			if loading {
				s.Warn(e.Code, "%s", e.Message)
				continue
			}
			warnings++
			if len(notes) < expr.MaxNotes {
				notes = append(notes, query.Note{Level: "Warning", Code: e.Code, Message: e.Message})
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		if n >= 2 {
			dups++
		}
		affected += n
	}
	if firstID > 0 {
		s.LastInsertID = firstID
	}
	// The OK packet's insert_id is the first generated id or, when none
	// was generated, the last one given (MariaDB reports it; LAST_INSERT_ID()
	// only follows generated ones).
	okID := firstID
	if okID == 0 {
		okID = lastGiven
	}
	res := &query.Result{AffectedRows: affected, LastInsertID: okID, Warnings: uint16(min(warnings, 65535)), Notes: notes}
	if nrows > 1 || pl.source != nil {
		// the statement's other warnings (s.stmtNotes) join res in exec
		res.Info = fmt.Sprintf("Records: %d  Duplicates: %d  Warnings: %d", nrows, dups, warnings+uint64(s.StmtWarnings))
	}
	s.RowCount = int64(affected)
	return res, nil
}

// insertRow inserts one full row. It returns MySQL's affected-row count
// for it: 1 inserted, 2 replaced/updated on duplicate, 0 unchanged.
func (s *Session) insertRow(ctx context.Context, x *txn.Txn, t *storage.Table, vals []types.Value, pl *insertPlan, ec *expr.Ctx) (n uint64, err error) {
	def := t.Def
	var slot *storage.Row
	defer func() {
		// A slot made for a row that was then refused must not stay in
		// the table's map. Only the holder of its row lock sees it empty.
		if err != nil && slot != nil {
			t.ForgetIfEmpty(slot)
		}
	}()
	if def.PrimaryKey() == nil {
		slot = t.NewHiddenSlot()
		if err := x.Lock(ctx, t, slot.Key); err != nil {
			return 0, err
		}
	} else {
		pk := pkOf(def, vals)
		key := storage.KeyOf(pk)
		if err := x.Lock(ctx, t, key); err != nil {
			return 0, err
		}
		slot = t.Slot(key, pk)
		if old := x.Read(t, slot); old.Vals != nil {
			switch {
			case pl != nil && len(pl.onDup) > 0:
				return s.onDuplicate(ctx, x, t, slot, old.Vals, vals, pl, ec)
			case pl != nil && pl.replace:
				if err := pl.rules.Check(ec, vals); err != nil {
					return 0, err
				}
				n, err := replaceUniqueConflicts(ctx, x, t, slot, vals, s.replacing(ctx, x, t), s.replaced(ctx, x, pl))
				if err != nil {
					return 0, err
				}
				if err := checkUnique(ctx, x, t, slot, vals, nil); err != nil {
					return 0, err
				}
				// REPLACE of a row is its delete and then an insert, for
				// the foreign keys too (as MySQL does once any references it).
				w := s.fkWriter(ctx, x, pl.rules)
				if _, err := s.fire(ctx, x, t, "BEFORE", "DELETE", old.Vals, nil); err != nil {
					return 0, err
				}
				x.Write(t, slot, nil)
				if err := pl.rules.AfterWrite(w, old.Vals, nil); err != nil {
					return 0, err
				}
				if _, err := s.fire(ctx, x, t, "AFTER", "DELETE", old.Vals, nil); err != nil {
					return 0, err
				}
				if err := pl.rules.CheckParents(w, nil, vals); err != nil {
					return 0, err
				}
				x.Write(t, slot, vals)
				if _, err := s.fire(ctx, x, t, "AFTER", "INSERT", nil, vals); err != nil {
					return 0, err
				}
				return 2 + n, nil
			}
			return 0, dupError(t, -1, vals)
		}
	}
	if pl != nil && len(pl.onDup) > 0 {
		// ON DUPLICATE KEY UPDATE meets a UNIQUE key's row as it meets the
		// primary key's: that row is updated instead.
		r, old, err := uniqueConflict(ctx, x, t, slot, vals)
		if err != nil {
			return 0, err
		}
		if r != nil {
			t.ForgetIfEmpty(slot) // the new row's slot, held by this row lock
			return s.onDuplicate(ctx, x, t, r, old, vals, pl, ec)
		}
	}
	if err := pl.rules.Check(ec, vals); err != nil {
		return 0, err
	}
	var replaced uint64
	if pl != nil && pl.replace {
		n, err := replaceUniqueConflicts(ctx, x, t, slot, vals, s.replacing(ctx, x, t), s.replaced(ctx, x, pl))
		if err != nil {
			return 0, err
		}
		replaced = n
	}
	if err := checkUnique(ctx, x, t, slot, vals, nil); err != nil {
		return 0, err
	}
	if err := pl.rules.CheckParents(s.fkWriter(ctx, x, pl.rules), nil, vals); err != nil {
		return 0, err
	}
	x.Write(t, slot, vals)
	if _, err := s.fire(ctx, x, t, "AFTER", "INSERT", nil, vals); err != nil {
		return 0, err
	}
	return 1 + replaced, nil
}

// beforeInsert runs the BEFORE INSERT triggers of a filled row. A value
// AUTO_INCREMENT generated is 0 in NEW, as in MySQL (it is generated
// when the row is written), and stays generated unless a trigger set it.
func (s *Session) beforeInsert(ctx context.Context, x *txn.Txn, t *storage.Table, vals []types.Value, genID uint64) ([]types.Value, error) {
	if s.Triggers == nil || !s.Triggers.HasTriggers(t, "INSERT") {
		return vals, nil
	}
	auto := -1
	var gen types.Value
	if genID > 0 {
		for c := range t.Def.Columns {
			if t.Def.Columns[c].AutoIncrement {
				auto, gen = c, vals[c]
				vals[c] = types.IntValue(0)
			}
		}
	}
	out, err := s.fireBefore(ctx, x, t, "INSERT", nil, vals)
	if err != nil {
		return nil, err
	}
	if auto >= 0 {
		if n, ok := out[auto].ToInt64(); ok && n == 0 {
			out[auto] = gen
		}
	}
	return out, nil
}
