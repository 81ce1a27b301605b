package plan

import (
	"context"
	"errors"
	"math"
	"sort"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

// SingleTable extracts the one table of a FROM clause.
func SingleTable(refs *ast.TableRefsClause) (*ast.TableName, string, error) {
	if refs == nil || refs.TableRefs == nil {
		return nil, "", nil
	}
	j := refs.TableRefs
	if j.Right != nil {
		return nil, "", sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support joins")
	}
	ts, ok := j.Left.(*ast.TableSource)
	if !ok {
		return nil, "", sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support this FROM clause")
	}
	tn, ok := ts.Source.(*ast.TableName)
	if !ok {
		return nil, "", sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support derived tables")
	}
	alias := tn.Name.O
	if ts.AsName.O != "" {
		alias = ts.AsName.O
	}
	return tn, alias, nil
}

// Access is how a statement finds its rows: a point lookup on the primary
// key or a unique key, a primary-key IN list, or a scan. The WHERE filter
// is always re-checked on the row read.
type Access struct {
	t       *storage.Table
	PK      []*expr.Expr // one per primary-key column: point lookup
	InList  []*expr.Expr // single-column primary key IN (...)
	UniqIdx int
	Uniq    []*expr.Expr // one per column of secondary index uniqIdx (UNIQUE or not)
	// lo and hi bound the first primary-key column (inclusive; either may
	// be nil) when nothing better applies: a range scan of the B-tree.
	Lo, Hi []*expr.Expr
	Filter *expr.Expr
	// Residual says the filter checks more than the point lookup's key
	// equalities (EXPLAIN's "Using where").
	Residual bool
	// PKPrefix says Lo and Hi hold an equality on the first column of a
	// longer primary key (EXPLAIN's ref).
	PKPrefix bool
	// IdxScan (>= 0) reads secondary index IdxScan's ordered side: the
	// rows whose first len(IdxEq) columns equal IdxEq and whose next one
	// is within IdxLo / IdxHi (inclusive bounds, the filter decides).
	IdxScan      int
	IdxEq        []*expr.Expr
	IdxLo, IdxHi []*expr.Expr
	colLo, colHi map[int][]*expr.Expr // bounds per column, while choosing
	// order, when set, says the rows are read in the ORDER BY's order
	// (ServeOrder) and only the first LIMIT + OFFSET that pass are kept.
	order *indexOrder
}

// ChooseAccess picks the access path for where over t.
func ChooseAccess(sc *expr.Scope, t *storage.Table, where ast.ExprNode) (*Access, error) {
	a := &Access{t: t, UniqIdx: -1, IdxScan: -1}
	if where == nil {
		return a, nil
	}
	f, err := sc.Compile(where)
	if err != nil {
		return nil, err
	}
	if f.HasAgg {
		return nil, sqlerr.New(sqlerr.ErInvalidUseOfGroup, "Invalid use of group function")
	}
	a.Filter = f
	eq := map[int]*expr.Expr{}
	var in map[int][]*expr.Expr
	parts := conjuncts(where)
	a.Residual = true
	for _, c := range parts {
		switch x := c.(type) {
		case *ast.BinaryOperationExpr:
			if x.Op != opcode.EQ {
				if err := a.noteRange(sc, x); err != nil {
					return nil, err
				}
				continue
			}
			l, r := unparen(x.L), unparen(x.R)
			if _, ok := r.(*ast.ColumnNameExpr); ok {
				l, r = r, l
			}
			cn, ok := l.(*ast.ColumnNameExpr)
			if !ok {
				continue
			}
			col, err := sc.ResolveColumn(cn.Name)
			if err != nil {
				return nil, err
			}
			v, err := sc.Compile(r)
			if err != nil || !v.IsConst || v.HasAgg {
				continue
			}
			eq[col.Col] = v
		case *ast.BetweenExpr:
			if !x.Not {
				if err := a.noteRange(sc, &ast.BinaryOperationExpr{Op: opcode.GE, L: x.Expr, R: x.Left}); err != nil {
					return nil, err
				}
				if err := a.noteRange(sc, &ast.BinaryOperationExpr{Op: opcode.LE, L: x.Expr, R: x.Right}); err != nil {
					return nil, err
				}
			}
		case *ast.PatternInExpr:
			cn, ok := unparen(x.Expr).(*ast.ColumnNameExpr)
			if !ok || x.Not || x.Sel != nil {
				continue
			}
			col, err := sc.ResolveColumn(cn.Name)
			if err != nil {
				return nil, err
			}
			var list []*expr.Expr
			for _, e := range x.List {
				v, err := sc.Compile(e)
				if err != nil || !v.IsConst {
					list = nil
					break
				}
				list = append(list, v)
			}
			if list != nil {
				if in == nil {
					in = map[int][]*expr.Expr{}
				}
				in[col.Col] = list
			}
		}
	}
	def := t.Def
	if pk := def.PrimaryKey(); pk != nil {
		vals := make([]*expr.Expr, len(pk))
		all := true
		for i, c := range pk {
			if vals[i] = eq[c]; vals[i] == nil {
				all = false
				break
			}
		}
		if all {
			a.PK, a.Residual = vals, len(parts) > len(pk)
			return a, nil
		}
		if len(pk) == 1 && in[pk[0]] != nil {
			a.InList = in[pk[0]]
			return a, nil
		}
	}
	// A UNIQUE key names at most one row; a plain KEY a few: either beats
	// a scan when the WHERE gives every one of its columns.
	for _, unique := range []bool{true, false} {
		for i, ix := range def.Indexes {
			if ix.Unique != unique || ix.Primary || ix.UniquePrefix() {
				continue
			}
			vals := make([]*expr.Expr, len(ix.Cols))
			all := true
			for j, c := range ix.Cols {
				if vals[j] = eq[c]; vals[j] == nil {
					all = false
					break
				}
			}
			if all {
				a.UniqIdx, a.Uniq, a.Residual = i, vals, len(parts) > len(ix.Cols)
				return a, nil
			}
		}
	}
	// An equality on the first column of a longer primary key is the
	// range [v, v] of the B-tree.
	if pk := def.PrimaryKey(); len(pk) > 1 && eq[pk[0]] != nil {
		a.Lo, a.Hi = append(a.Lo, eq[pk[0]]), append(a.Hi, eq[pk[0]])
		a.PKPrefix, a.Residual = true, len(parts) > 1
		return a, nil
	}
	a.choosePrefix(eq)
	return a, nil
}

// choosePrefix picks the secondary index whose leading columns the WHERE
// gives most of (equalities, then a range on the next column): a read of
// that part of its ordered side. A range on the primary key's first
// column is kept over a range alone on an index's first column.
func (a *Access) choosePrefix(eq map[int]*expr.Expr) {
	best, bestScore := -1, 0
	for i, ix := range a.t.Def.Indexes {
		if ix.Primary || ix.UniquePrefix() {
			continue
		}
		k := 0
		for k < len(ix.Cols) && eq[ix.Cols[k]] != nil {
			k++
		}
		score := 2 * k
		if k < len(ix.Cols) && (a.colLo[ix.Cols[k]] != nil || a.colHi[ix.Cols[k]] != nil) {
			score++
		}
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	if best < 0 || bestScore == 1 && (a.Lo != nil || a.Hi != nil) {
		return
	}
	ix := a.t.Def.Indexes[best]
	a.IdxScan = best
	k := 0
	for k < len(ix.Cols) && eq[ix.Cols[k]] != nil {
		a.IdxEq = append(a.IdxEq, eq[ix.Cols[k]])
		k++
	}
	if k < len(ix.Cols) {
		a.IdxLo, a.IdxHi = a.colLo[ix.Cols[k]], a.colHi[ix.Cols[k]]
	}
}

// noteRange records a comparison of the first primary-key column with a
// constant (<, <=, >, >=) as a bound of a range scan. Bounds are inclusive:
// the filter, always re-checked, makes them exact.
func (a *Access) noteRange(sc *expr.Scope, x *ast.BinaryOperationExpr) error {
	pk := a.t.Def.PrimaryKey()
	op := x.Op
	l, r := unparen(x.L), unparen(x.R)
	if _, ok := r.(*ast.ColumnNameExpr); ok {
		l, r = r, l
		switch op {
		case opcode.LT:
			op = opcode.GT
		case opcode.LE:
			op = opcode.GE
		case opcode.GT:
			op = opcode.LT
		case opcode.GE:
			op = opcode.LE
		}
	}
	cn, ok := l.(*ast.ColumnNameExpr)
	if !ok {
		return nil
	}
	col, err := sc.ResolveColumn(cn.Name)
	if err != nil {
		return err
	}
	v, err := sc.Compile(r)
	if err != nil || !v.IsConst || v.HasAgg {
		return nil
	}
	if a.colLo == nil {
		a.colLo, a.colHi = map[int][]*expr.Expr{}, map[int][]*expr.Expr{}
	}
	switch op {
	case opcode.GT, opcode.GE:
		a.colLo[col.Col] = append(a.colLo[col.Col], v)
		if pk != nil && col.Col == pk[0] {
			a.Lo = append(a.Lo, v)
		}
	case opcode.LT, opcode.LE:
		a.colHi[col.Col] = append(a.colHi[col.Col], v)
		if pk != nil && col.Col == pk[0] {
			a.Hi = append(a.Hi, v)
		}
	}
	return nil
}

func unparen(e ast.ExprNode) ast.ExprNode {
	for {
		p, ok := e.(*ast.ParenthesesExpr)
		if !ok {
			return e
		}
		e = p.Expr
	}
}

func conjuncts(e ast.ExprNode) []ast.ExprNode {
	return appendConjuncts(nil, e)
}

// appendConjuncts appends e's AND-ed parts to out, in order; one slice for
// the whole walk keeps a long a AND b AND ... chain linear.
func appendConjuncts(out []ast.ExprNode, e ast.ExprNode) []ast.ExprNode {
	e = unparen(e)
	if b, ok := e.(*ast.BinaryOperationExpr); ok && b.Op == opcode.LogicAnd {
		return appendConjuncts(appendConjuncts(out, b.L), b.R)
	}
	return append(out, e)
}

// RowRef is a row found by an access path, with the values read.
type RowRef struct {
	Row  *storage.Row
	Vals []types.Value
}

// errNotAKey says a key expression's value does not convert exactly to
// its column's type ('1x' for an INT key): the comparison must then be
// done the long way, by scanning with the filter, as MySQL compares such
// values numerically.
var errNotAKey = errors.New("value is not a key of the column's type")

// KeyValues evaluates and coerces key expressions to the key columns'
// types. ok is false when a value is NULL (no row can match);
// errNotAKey when a value does not convert exactly.
func KeyValues(ec *expr.Ctx, t *storage.Table, cols []int, exprs []*expr.Expr) ([]types.Value, bool, error) {
	vals := make([]types.Value, len(cols))
	for i, c := range cols {
		v, err := exprs[i].Fn(ec)
		if err != nil {
			return nil, false, err
		}
		if v.IsNull() {
			return nil, false, nil
		}
		cv, err := types.Coerce(v, t.Def.Columns[c].Type)
		if err != nil || types.Compare(cv, v) != 0 {
			if v.K == types.KindString {
				return nil, false, errNotAKey
			}
			return nil, false, nil
		}
		// a TIMESTAMP key is looked up as the table stores it
		var fits bool
		if cv, fits = ec.Env.StoredTimestamp(t.Def, c, cv); !fits {
			return nil, false, nil // outside TIMESTAMP's range: no row has it
		}
		vals[i] = cv
	}
	return vals, true, nil
}

// Find returns the rows matching the access path and filter. With lock,
// each row is locked (exclusive) before it is read, so the values returned
// are the newest and stay so until the transaction ends.
func (a *Access) Find(ctx context.Context, x *txn.Txn, ec *expr.Ctx, lock bool) ([]RowRef, error) {
	t := ec.TableOf(a.t)
	if t != a.t {
		lock = false // a derived table's rows are this execution's own: nothing to lock
	}
	var out []RowRef
	// Plain reads see the statement's snapshot; locking reads the newest
	// committed version, which the lock keeps stable.
	read := x.ReadSnapshot
	if lock {
		read = x.Read
	}
	// match locks (if asked) and reads r, and reports whether it passes
	// the filter.
	match := func(r *storage.Row) (RowRef, bool, error) {
		if lock {
			if err := x.Lock(ctx, t, r.Key); err != nil {
				return RowRef{}, false, err
			}
		}
		v := read(t, r)
		if v.Vals == nil {
			return RowRef{}, false, nil
		}
		ec.Row = v.Vals
		if a.Filter != nil {
			ok, err := expr.EvalBool(a.Filter, ec)
			if err != nil || !ok {
				return RowRef{}, false, err
			}
		}
		return RowRef{Row: r, Vals: v.Vals}, true, nil
	}
	check := func(r *storage.Row) error {
		ec.Examine(1)
		ref, ok, err := match(r)
		if ok {
			out = append(out, ref)
		}
		return err
	}
	pointKey := func(pk []types.Value) error {
		key := storage.KeyOf(pk)
		if lock {
			if err := x.Lock(ctx, t, key); err != nil {
				return err
			}
		}
		r := t.Lookup(key)
		if r == nil {
			return nil
		}
		return check(r)
	}
	if a.order != nil {
		if max, ok, err := a.order.count(ec); err != nil {
			return nil, err
		} else if ok && max == 0 {
			return nil, nil // LIMIT 0: nothing to read
		} else if ok {
			if done, err := a.findOrdered(x, ec, lock, match, check, &out, max); done || err != nil {
				return out, err
			}
		}
	}
	switch {
	case a.PK != nil:
		pk, ok, err := KeyValues(ec, t, t.Def.PrimaryKey(), a.PK)
		if err == errNotAKey {
			break // scan below
		}
		if err != nil || !ok {
			return out, err
		}
		return out, pointKey(pk)
	case a.InList != nil:
		seen := map[string]bool{}
		for _, e := range a.InList {
			pk, ok, err := KeyValues(ec, t, t.Def.PrimaryKey(), []*expr.Expr{e})
			if err == errNotAKey {
				return a.scan(x, ec, lock, match)
			}
			if err != nil {
				return nil, err
			}
			if !ok || seen[storage.KeyOf(pk)] {
				continue
			}
			seen[storage.KeyOf(pk)] = true
			if err := pointKey(pk); err != nil {
				return nil, err
			}
		}
		sortRefs(t, out)
		return out, nil
	case a.Uniq != nil:
		cols := t.Def.Indexes[a.UniqIdx].Cols
		vals, ok, err := KeyValues(ec, t, cols, a.Uniq)
		if err == errNotAKey {
			return a.scan(x, ec, lock, match)
		}
		if err != nil {
			return nil, err
		}
		if !ok {
			return out, nil
		}
		var kb []byte
		for _, v := range vals {
			kb = types.KeyString(kb, v)
		}
		key := string(kb)
		unique := t.Def.Indexes[a.UniqIdx].Unique
		if lock && unique {
			if err := x.LockKey(ctx, txn.UniqueLockKey(t, a.UniqIdx, key)); err != nil {
				return nil, err
			}
		}
		for _, r := range t.IndexCandidates(a.UniqIdx, key, vals) {
			v := read(t, r)
			if v.Vals == nil {
				continue
			}
			if k, ok := t.IndexKey(a.UniqIdx, v.Vals); ok && k == key {
				if err := check(r); err != nil {
					return nil, err
				}
			}
		}
		if !unique {
			sortRefs(t, out)
		}
		return out, nil
	}
	if a.IdxScan >= 0 {
		ok, err := a.indexRange(ec, check)
		if ok || err != nil {
			sortRefs(t, out)
			return out, err
		}
		return a.scan(x, ec, lock, match) // a key value of another type
	}
	if a.Lo != nil || a.Hi != nil {
		lo, hi, empty, err := a.bounds(ec)
		if err != nil || empty {
			return out, err
		}
		return a.scanRows(x, ec, lo, hi, lock, match, 0)
	}
	return a.scan(x, ec, lock, match)
}

// bounds evaluates the range's bounds: the tightest of each side whose
// value is exactly a value of the column (others are left to the filter).
// empty reports a NULL bound: no row can match.
func (a *Access) bounds(ec *expr.Ctx) (lo, hi *types.Value, empty bool, err error) {
	return boundsOf(ec, a.t.Def, a.t.Def.PrimaryKey()[0], a.Lo, a.Hi)
}

// boundsOf evaluates the tightest of lower and upper bound expressions for
// column col of def; empty when one is NULL (nothing can match). A
// TIMESTAMP's bounds are in the zone the table stores it in.
func boundsOf(ec *expr.Ctx, def *storage.TableDef, col int, los, his []*expr.Expr) (lo, hi *types.Value, empty bool, err error) {
	ct := def.Columns[col].Type
	pick := func(exprs []*expr.Expr, better func(c int) bool) (*types.Value, bool, error) {
		var best *types.Value
		for _, e := range exprs {
			v, err := e.Fn(ec)
			if err != nil {
				return nil, false, err
			}
			if v.IsNull() {
				return nil, true, nil
			}
			cv, err := types.Coerce(v, ct)
			if err != nil || types.Compare(cv, v) != 0 {
				continue
			}
			var fits bool
			if cv, fits = ec.Env.StoredTimestamp(def, col, cv); !fits {
				continue // outside TIMESTAMP's range: the filter decides
			}
			if best == nil || better(types.Compare(cv, *best)) {
				b := cv
				best = &b
			}
		}
		return best, false, nil
	}
	if lo, empty, err = pick(los, func(c int) bool { return c > 0 }); err != nil || empty {
		return nil, nil, empty, err
	}
	hi, empty, err = pick(his, func(c int) bool { return c < 0 })
	return lo, hi, empty, err
}

// scan reads every row at the statement's snapshot and keeps those the
// filter accepts (locking them first when lock is set).
func (a *Access) scan(x *txn.Txn, ec *expr.Ctx, lock bool, match func(*storage.Row) (RowRef, bool, error)) ([]RowRef, error) {
	ec.NoteFullScan()
	return a.scanRows(x, ec, nil, nil, lock, match, 0)
}

// scanRows reads the rows whose first primary-key column is within [lo,
// hi] (nil: unbounded) one by one, in key order, and keeps those the
// filter accepts, stopping as soon as it has max (0: all).
func (a *Access) scanRows(x *txn.Txn, ec *expr.Ctx, lo, hi *types.Value, lock bool, match func(*storage.Row) (RowRef, bool, error), max int) ([]RowRef, error) {
	var out []RowRef
	err := a.eachMatch(x, ec, lo, hi, func(it storage.ScanItem) (bool, error) {
		ref, ok, err := a.keep(it, lock, match)
		if ok {
			out = append(out, ref)
		}
		return max == 0 || len(out) < max, err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// keep is the row of a scanned item the filter accepted: as read, or,
// with lock, locked and read again. Semi-consistent read: only rows that
// match as last committed are locked, and the locked version is checked
// again.
func (a *Access) keep(it storage.ScanItem, lock bool, match func(*storage.Row) (RowRef, bool, error)) (RowRef, bool, error) {
	if lock {
		return match(it.Row)
	}
	return RowRef{Row: it.Row, Vals: it.Vals}, true, nil
}

// eachMatch scans the rows within [lo, hi] at the statement's snapshot
// and calls fn for each one the filter accepts, until fn returns false or
// an error: no more than the table's current chunk is held at a time.
// Every row read counts as examined, and its LSN as read.
func (a *Access) eachMatch(x *txn.Txn, ec *expr.Ctx, lo, hi *types.Value, fn func(storage.ScanItem) (bool, error)) error {
	read := 0
	defer func() { ec.Examine(read) }()
	var err error
	x.ScanEach(ec.TableOf(a.t), lo, hi, func(it storage.ScanItem) bool {
		read++
		if err = ec.Poll(); err != nil {
			return false
		}
		x.NoteRead(it.LSN)
		if it.Vals == nil {
			return true
		}
		ec.Row = it.Vals
		if a.Filter != nil {
			var ok bool
			if ok, err = expr.EvalBool(a.Filter, ec); err != nil || !ok {
				return err == nil
			}
		}
		var more bool
		more, err = fn(it)
		return more && err == nil
	})
	return err
}

func sortRefs(t *storage.Table, refs []RowRef) {
	pk := t.Def.PrimaryKey()
	if len(refs) < 2 || pk == nil {
		return
	}
	less := func(a, b RowRef) bool {
		for _, c := range pk {
			if x := types.Compare(a.Vals[c], b.Vals[c]); x != 0 {
				return x < 0
			}
		}
		return false
	}
	sort.SliceStable(refs, func(i, j int) bool { return less(refs[i], refs[j]) })
}

// RangeRows counts the committed rows within a primary-key range that
// pass the filter (or an IN list's points), for EXPLAIN's rows; -1 when it
// is not a range.
func (a *Access) RangeRows(ec *expr.Ctx) int {
	if a.InList != nil {
		return len(a.InList)
	}
	if a.Lo == nil && a.Hi == nil {
		return -1
	}
	lo, hi, empty, err := a.bounds(ec)
	if err != nil {
		return -1
	}
	if empty {
		return 0
	}
	// Bounds are kept inclusive: the filter decides the ends (id > 3).
	n := 0
	a.t.ScanEach(0, math.MaxUint64, lo, hi, func(it storage.ScanItem) bool {
		if it.Vals == nil {
			return true
		}
		if a.PKPrefix { // [v, v] is exact
			n++
			return true
		}
		ec.Row = it.Vals
		if ok, err := expr.EvalBool(a.Filter, ec); err == nil && ok {
			n++
		}
		return true
	})
	return n
}

// indexRange checks the rows of the chosen part of a secondary index; ok
// is false when a key value does not convert to its column's type (the
// caller scans instead).
func (a *Access) indexRange(ec *expr.Ctx, check func(*storage.Row) error) (bool, error) {
	t := ec.TableOf(a.t)
	cols := t.Def.Indexes[a.IdxScan].Cols
	vals, ok, err := KeyValues(ec, t, cols[:len(a.IdxEq)], a.IdxEq)
	if err == errNotAKey {
		return false, nil
	}
	if err != nil || !ok {
		return true, err // a NULL key matches nothing
	}
	var lo, hi *types.Value
	if len(a.IdxEq) < len(cols) {
		var empty bool
		if lo, hi, empty, err = boundsOf(ec, t.Def, cols[len(a.IdxEq)], a.IdxLo, a.IdxHi); err != nil || empty {
			return true, err
		}
	}
	for _, r := range t.IndexRange(a.IdxScan, vals, lo, hi) {
		if err := check(r); err != nil {
			return true, err
		}
	}
	return true, nil
}

// IndexRows counts the committed rows the chosen secondary-index part
// holds (EXPLAIN's rows): every one for equalities alone, those passing
// the filter when a range's ends are involved; -1 when it cannot tell.
func (a *Access) IndexRows(ec *expr.Ctx) int {
	n := 0
	check := func(r *storage.Row) error {
		vals, _ := a.t.Committed(r)
		if vals == nil {
			return nil
		}
		if a.IdxLo != nil || a.IdxHi != nil {
			ec.Row = vals
			if ok, err := expr.EvalBool(a.Filter, ec); err != nil || !ok {
				return nil
			}
		}
		n++
		return nil
	}
	if ok, err := a.indexRange(ec, check); !ok || err != nil {
		return -1
	}
	return n
}

// SingleSource is the one item of a FROM clause without joins (nil
// without FROM): a table name or a derived table.
func SingleSource(refs *ast.TableRefsClause) *ast.TableSource {
	if refs == nil || refs.TableRefs == nil || refs.TableRefs.Right != nil {
		return nil
	}
	ts, _ := refs.TableRefs.Left.(*ast.TableSource)
	return ts
}
