package exec

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/constraint"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sql/plan"
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

type insertPlan struct {
	t       *storage.Table
	cols    []int
	rows    [][]*expr.Expr // nil entry = DEFAULT
	source  queryPlan      // INSERT ... SELECT (a SELECT, UNION ..., WITH ...)
	replace bool
	ignore  bool
	onDup   []assignment
	rules   *constraint.Rules // CHECKs and foreign keys; nil if none
	// view, check: the view inserted through and its WITH CHECK OPTION
	// condition over the new row.
	view  *viewTarget
	check *expr.Expr
}

type assignment struct {
	col int
	e   *expr.Expr
}

func (s *State) buildInsert(n *ast.InsertStmt) (*insertPlan, error) {
	var source queryPlan
	if n.Select != nil {
		var err error
		if source, err = s.buildQuery(n.Select, nil); err != nil {
			return nil, err
		}
	}
	tn, _, err := plan.SingleTable(n.Table)
	if err != nil {
		return nil, err
	}
	t, view, err := s.writeTarget(tn, "", "INSERT")
	if err != nil {
		return nil, err
	}
	pl := &insertPlan{t: t, replace: n.IsReplace, ignore: n.IgnoreErr, source: source, view: view}
	sc := &expr.Scope{DB: s.DB, Funcs: s.Functions(), Table: t, Alias: t.Def.Name, Sub: s}
	if view != nil {
		sc.Alias, sc.View = view.alias, view.cols
		if pl.check, err = s.checkOption(view); err != nil {
			return nil, err
		}
	}
	def := t.Def
	{
		if len(n.Columns) == 0 && view != nil {
			for _, name := range view.def.Columns {
				i, err := view.insertColumn(name)
				if err != nil {
					return nil, err
				}
				pl.cols = append(pl.cols, i)
			}
		} else if len(n.Columns) == 0 {
			for i := range def.Columns {
				pl.cols = append(pl.cols, i)
			}
		} else {
			seen := map[int]bool{}
			for _, c := range n.Columns {
				i := def.ColumnIndex(c.Name.O)
				if view != nil {
					if i, err = view.insertColumn(c.Name.O); err != nil {
						return nil, err
					}
				}
				if i < 0 {
					return nil, sqlerr.New(sqlerr.ErBadField, "Unknown column '%s' in 'INSERT INTO'", c.Name.O)
				}
				if seen[i] {
					return nil, sqlerr.New(sqlerr.ErFieldSpecifiedTwice, "Column '%s' specified twice", c.Name.O)
				}
				seen[i] = true
				pl.cols = append(pl.cols, i)
			}
		}
		for ri, l := range n.Lists {
			if len(l) != len(pl.cols) && !(len(l) == 0 && len(n.Columns) == 0) {
				return nil, sqlerr.New(sqlerr.ErWrongValueCountOnRow, "Column count doesn't match value count at row %d", ri+1)
			}
			row := make([]*expr.Expr, len(l))
			for i, e := range l {
				if row[i], err = compileInsertValue(sc, e); err != nil {
					return nil, err
				}
			}
			pl.rows = append(pl.rows, row)
		}
	}
	if source != nil && len(source.Columns()) != len(pl.cols) {
		return nil, sqlerr.New(sqlerr.ErWrongValueCountOnRow, "Column count doesn't match value count at row 1")
	}
	for _, a := range n.OnDuplicate {
		i := def.ColumnIndex(a.Column.Name.O)
		if view != nil {
			if i, err = view.column(a.Column, "UPDATE"); err != nil {
				return nil, err
			}
		}
		if i < 0 {
			return nil, sqlerr.New(sqlerr.ErBadField, "Unknown column '%s' in 'UPDATE'", a.Column.Name.O)
		}
		sc.Clause = "SELECT" // what MariaDB names an ON DUPLICATE KEY UPDATE value
		ce, err := sc.Compile(a.Expr)
		if err != nil {
			return nil, err
		}
		pl.onDup = append(pl.onDup, assignment{col: i, e: ce})
	}
	sc.Clause = ""
	if pl.rules, err = s.rulesFor(t, tableScope(sc)); err != nil {
		return nil, err
	}
	return pl, nil
}

// rowExprs returns VALUES row ri's expressions (none for INSERT ... SELECT).
func (pl *insertPlan) rowExprs(ri int) []*expr.Expr {
	if pl.source != nil {
		return nil
	}
	return pl.rows[ri]
}

// compileInsertValue compiles a VALUES item; DEFAULT becomes nil.
func compileInsertValue(sc *expr.Scope, e ast.ExprNode) (*expr.Expr, error) {
	if _, ok := e.(*ast.DefaultExpr); ok {
		return nil, nil
	}
	// Values are computed before the row exists: no column references.
	saved := sc.Table
	sc.Table, sc.Clause = nil, "VALUES"
	ce, err := sc.Compile(e)
	sc.Table, sc.Clause = saved, ""
	return ce, err
}

func (s *State) ExecInsert(ctx context.Context, x *txn.Txn, p *parse.Stmt, n *ast.InsertStmt, args []types.Value) (*Result, error) {
	s.beginWrites()
	pi, err := s.PlanFor(p, func() (any, error) { return s.buildInsert(n) })
	if err != nil {
		return nil, err
	}
	return s.runInsert(ctx, x, pi.(*insertPlan), args)
}

// InsertSelect writes the rows of the compiled SELECT src into t's columns
// cols (CREATE TABLE ... [IGNORE|REPLACE] SELECT), with t's CHECKs, as
// INSERT [IGNORE] / REPLACE ... SELECT does.
func (s *State) InsertSelect(ctx context.Context, x *txn.Txn, t *storage.Table, cols []int, src QueryPlan, args []types.Value, ignore, replace bool) (*Result, error) {
	s.beginWrites()
	q, ok := src.(queryPlan)
	if !ok {
		panic("exec: InsertSelect of a plan BuildQuery did not make")
	}
	pl := &insertPlan{t: t, cols: cols, source: q, ignore: ignore, replace: replace}
	sc := &expr.Scope{DB: s.DB, Funcs: s.Functions(), Table: t, Alias: t.Def.Name, Sub: s}
	var err error
	if pl.rules, err = s.rulesFor(t, sc); err != nil {
		return nil, err
	}
	return s.runInsert(ctx, x, pl, args)
}

// runInsert runs a compiled INSERT in x.
func (s *State) runInsert(ctx context.Context, x *txn.Txn, pl *insertPlan, args []types.Value) (*Result, error) {
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
	ec := &expr.Ctx{Env: &s.Env, Args: args, Strict: s.strictWrites(), Context: ctx, Txn: x}
	var affected, firstID uint64
	var lastGiven uint64 // the last AUTO_INCREMENT value given explicitly
	var dups, warnings uint64
	var notes []Note
	var selected [][]types.Value
	if pl.source != nil {
		r, err := pl.source.run(runCtx{ctx: ctx, x: x, env: &s.Env, args: args, strict: ec.Strict})
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
				return nil, pl.view.checkFailed()
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
				notes = append(notes, Note{Level: "Warning", Code: e.Code, Message: e.Message})
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
	res := &Result{AffectedRows: affected, LastInsertID: okID, Warnings: uint16(min(warnings, 65535)), Notes: notes}
	if nrows > 1 || pl.source != nil {
		// the statement's other warnings (s.stmtNotes) join res in exec
		res.Info = fmt.Sprintf("Records: %d  Duplicates: %d  Warnings: %d", nrows, dups, warnings+uint64(s.StmtWarnings))
	}
	s.RowCount = int64(affected)
	return res, nil
}

// givenAutoID is the AUTO_INCREMENT column's value of a filled row, or 0.
func givenAutoID(def *storage.TableDef, vals []types.Value) uint64 {
	for c := range def.Columns {
		if def.Columns[c].AutoIncrement && !vals[c].IsNull() {
			if vals[c].K == types.KindUint {
				return vals[c].Uint()
			}
			if n, ok := vals[c].ToInt64(); ok && n > 0 {
				return uint64(n)
			}
		}
	}
	return 0
}

// fillRow applies defaults and AUTO_INCREMENT and coerces every column.
// It returns the generated AUTO_INCREMENT value, if one was generated.
func (s *State) fillRow(t *storage.Table, vals []types.Value, given []bool, rowNum int) (uint64, error) {
	def := t.Def
	var gen uint64
	autoCol := -1
	// Defaults first: a NOT NULL column left out is reported (1364) before
	// any value that does not fit, as MariaDB does.
	for c := range def.Columns {
		col := &def.Columns[c]
		if given[c] || col.AutoIncrement {
			continue
		}
		switch {
		case col.DefaultNow:
			vals[c] = types.TimeValue(s.Now().Truncate(time.Second))
		case col.HasDefault:
			vals[c] = col.Default
		case col.NotNull:
			d, ok := types.ImplicitDefault(col.Type)
			if !ok || s.strictWrites() {
				return 0, sqlerr.New(sqlerr.ErNoDefaultForField, "Field '%s' doesn't have a default value", col.Name)
			}
			// non-strict: the type's implicit default, with a warning
			s.Warn(sqlerr.ErNoDefaultForField, "Field '%s' doesn't have a default value", col.Name)
			vals[c] = d
		default:
			vals[c] = types.Null
		}
	}
	for c := range def.Columns {
		col := &def.Columns[c]
		if col.AutoIncrement {
			v := vals[c]
			zero := !given[c] || v.IsNull()
			if !zero && s.SQLMode()&sysvar.ModeNoAutoValueOnZero == 0 {
				// 0 generates a value too, unless NO_AUTO_VALUE_ON_ZERO
				if n, ok := v.ToInt64(); ok && n == 0 && v.K != types.KindString {
					zero = true
				}
			}
			if zero {
				// Generated after every other column is checked, so a
				// row that fails (1048, 1406 ...) consumes no value.
				autoCol = c
				continue
			}
		}
		v, err := s.coerceColumn(def, c, vals[c], rowNum)
		if err != nil {
			return 0, err
		}
		vals[c] = v
		if col.AutoIncrement && !v.IsNull() {
			if v.K == types.KindUint {
				t.SeenAutoInc(v.Uint()) // a BIGINT UNSIGNED past 2^63 too
			} else if n, ok := v.ToInt64(); ok && n > 0 {
				t.SeenAutoInc(uint64(n))
			}
		}
	}
	if autoCol >= 0 {
		if t.AutoInc() == math.MaxUint64 {
			return 0, sqlerr.New(sqlerr.ErAutoincReadFailed, "Failed to read auto-increment value from storage engine")
		}
		gen = t.NextAutoInc()
		v, err := s.coerceColumn(def, autoCol, types.UintValue(gen), rowNum)
		if e, ok := sqlerr.As(err); ok && e.Code == sqlerr.ErWarnDataOutOfRange {
			// The counter is past the column's range: MariaDB's 167.
			return 0, sqlerr.New(sqlerr.ErAutoincRange, "%s", e.Message)
		}
		if err != nil {
			return 0, err
		}
		vals[autoCol] = v
	}
	return gen, nil
}

// insertRow inserts one full row. It returns MySQL's affected-row count
// for it: 1 inserted, 2 replaced/updated on duplicate, 0 unchanged.
func (s *State) insertRow(ctx context.Context, x *txn.Txn, t *storage.Table, vals []types.Value, pl *insertPlan, ec *expr.Ctx) (n uint64, err error) {
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
				return s.onDuplicate(ctx, x, t, slot, old.Vals, pl, ec)
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

// replaced is what REPLACE does after deleting a conflicting row: the
// foreign keys referencing it act as on a DELETE.
func (s *State) replaced(ctx context.Context, x *txn.Txn, pl *insertPlan) func(old []types.Value) error {
	return func(old []types.Value) error {
		if err := pl.rules.AfterWrite(s.fkWriter(ctx, x, pl.rules), old, nil); err != nil {
			return err
		}
		_, err := s.fire(ctx, x, pl.t, "AFTER", "DELETE", old, nil)
		return err
	}
}

// replacing is what REPLACE does before deleting a conflicting row: its
// BEFORE DELETE triggers run.
func (s *State) replacing(ctx context.Context, x *txn.Txn, t *storage.Table) func(old []types.Value) error {
	return func(old []types.Value) error {
		_, err := s.fire(ctx, x, t, "BEFORE", "DELETE", old, nil)
		return err
	}
}

// replaceUniqueConflicts deletes, for REPLACE, every other row that has
// vals' value in a UNIQUE index, as MySQL does; it returns how many.
func replaceUniqueConflicts(ctx context.Context, x *txn.Txn, t *storage.Table, self *storage.Row, vals []types.Value, deleting, deleted func(old []types.Value) error) (uint64, error) {
	var n uint64
	for i, ix := range t.Def.Indexes {
		if !ix.Unique || ix.Primary {
			continue
		}
		key, ok := t.IndexKey(i, vals)
		if !ok {
			continue
		}
		if err := x.LockKey(ctx, txn.UniqueLockKey(t, i, key)); err != nil {
			return n, err
		}
		for _, r := range t.IndexCandidates(i, key) {
			if r == self {
				continue
			}
			if err := x.Lock(ctx, t, r.Key); err != nil {
				return n, err
			}
			v := x.Read(t, r)
			if v.Vals == nil {
				continue
			}
			if k, ok := t.IndexKey(i, v.Vals); ok && k == key {
				if err := deleting(v.Vals); err != nil {
					return n, err
				}
				x.Write(t, r, nil)
				n++
				if err := deleted(v.Vals); err != nil {
					return n, err
				}
			}
		}
	}
	return n, nil
}

func (s *State) onDuplicate(ctx context.Context, x *txn.Txn, t *storage.Table, slot *storage.Row, old []types.Value, pl *insertPlan, ec *expr.Ctx) (uint64, error) {
	nv := append([]types.Value(nil), old...)
	ec.Row = nv
	for _, a := range pl.onDup {
		v, err := a.e.Fn(ec)
		if err != nil {
			return 0, err
		}
		if nv[a.col], err = s.coerceColumn(t.Def, a.col, v, 1); err != nil {
			return 0, err
		}
	}
	// The row is updated: its UPDATE triggers run, not the AFTER INSERT
	// ones (as in MySQL).
	nv, err := s.fireBefore(ctx, x, t, "UPDATE", old, nv)
	if err != nil {
		return 0, err
	}
	if rowsEqual(old, nv) {
		_, err := s.fire(ctx, x, t, "AFTER", "UPDATE", old, nv)
		return 0, err
	}
	if err := pl.rules.Check(ec, nv); err != nil {
		return 0, err
	}
	if err := checkUnique(ctx, x, t, slot, nv, nil); err != nil {
		return 0, err
	}
	w := s.fkWriter(ctx, x, pl.rules)
	if err := pl.rules.CheckParents(w, old, nv); err != nil {
		return 0, err
	}
	x.Write(t, slot, nv)
	if err := pl.rules.AfterWrite(w, old, nv); err != nil {
		return 0, err
	}
	_, err = s.fire(ctx, x, t, "AFTER", "UPDATE", old, nv)
	return 2, err
}

// beforeInsert runs the BEFORE INSERT triggers of a filled row. A value
// AUTO_INCREMENT generated is 0 in NEW, as in MySQL (it is generated
// when the row is written), and stays generated unless a trigger set it.
func (s *State) beforeInsert(ctx context.Context, x *txn.Txn, t *storage.Table, vals []types.Value, genID uint64) ([]types.Value, error) {
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
