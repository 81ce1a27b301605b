package plan

import (
	"context"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

// joinTable is one table of a SELECT's FROM with joins. Rows are joined
// left to right by nested loops; a table whose key columns are equal to
// expressions over the tables before it is looked up by that key instead
// of scanned.
type joinTable struct {
	expr.Source
	on *expr.Expr
	// filters are the WHERE conjuncts that name no table after this one:
	// they are checked as soon as this table's columns are in the row, so
	// a false one prunes the loops below instead of every combination.
	filters []*expr.Expr
	// lookup: the index (primary = -1 is "none"; see lookupPK) and one
	// expression over earlier tables per index column.
	LookupPK  bool
	LookupIdx int
	Lookup    []*expr.Expr
}

// Join is a FROM clause with joins.
type Join struct {
	Tables  []*joinTable
	sources []*expr.Source // the tables' sources, for scopes over a prefix of them
	Width   int
	where   *expr.Expr
	// pre are WHERE conjuncts over no table (constants, parameters): one
	// that is not true ends the join before it starts, so a 30-table join
	// WHERE 1 = 0 answers at once. rest are those that could not be placed
	// at a table (subqueries, outer columns): checked on every full row.
	pre, rest []*expr.Expr
}

// flattenJoin turns a left-deep join tree into its tables in order.
func flattenJoin(j *ast.Join) ([]*ast.TableSource, []*ast.Join, error) {
	var sources []*ast.TableSource
	var joins []*ast.Join // joins[i] joins sources[i+1]; nil for the first
	var walk func(n ast.ResultSetNode, via *ast.Join) error
	walk = func(n ast.ResultSetNode, via *ast.Join) error {
		switch x := n.(type) {
		case *ast.Join:
			if x.Right == nil {
				return walk(x.Left, via)
			}
			if _, nested := x.Right.(*ast.Join); nested {
				return sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support a join nested on the right")
			}
			if x.Tp == ast.RightJoin || x.NaturalJoin || len(x.Using) > 0 {
				return sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support RIGHT, NATURAL or USING joins")
			}
			if err := walk(x.Left, via); err != nil {
				return err
			}
			return walk(x.Right, x)
		case *ast.TableSource:
			sources = append(sources, x)
			if len(sources) > 1 {
				joins = append(joins, via)
			}
			return nil
		}
		return sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support this FROM clause")
	}
	if err := walk(j, nil); err != nil {
		return nil, nil, err
	}
	return sources, joins, nil
}

// IsJoin reports whether a FROM clause has more than one table.
func IsJoin(refs *ast.TableRefsClause) bool {
	return refs != nil && refs.TableRefs != nil && refs.TableRefs.Right != nil
}

// BuildJoin resolves the tables and compiles ON conditions and lookups;
// sc becomes the scope of the combined row. resolve gives a FROM item's
// table and alias: a stored table, or the placeholder of a derived table
// or CTE whose rows each execution binds in its expr.Ctx (TableOf).
func BuildJoin(sc *expr.Scope, refs *ast.TableRefsClause, where ast.ExprNode, resolve func(*ast.TableSource) (*storage.Table, string, error)) (*Join, error) {
	sources, joins, err := flattenJoin(refs.TableRefs)
	if err != nil {
		return nil, err
	}
	jp := &Join{}
	for i, src := range sources {
		t, alias, err := resolve(src)
		if err != nil {
			return nil, err
		}
		for _, o := range jp.Tables {
			if strings.EqualFold(o.Alias, alias) {
				return nil, sqlerr.New(sqlerr.ErNonUniqTable, "Not unique table/alias: '%s'", alias)
			}
		}
		jt := &joinTable{Source: expr.Source{Table: t, Alias: alias, Off: jp.Width}, LookupIdx: -1}
		if i > 0 && joins[i-1] != nil && joins[i-1].Tp == ast.LeftJoin {
			jt.Left = true
		}
		jp.Tables = append(jp.Tables, jt)
		jp.sources = append(jp.sources, &jt.Source)
		jp.Width += len(t.Def.Columns)
	}
	sc.Joined = jp.sources
	sc.Clause = "on clause"
	for i, jt := range jp.Tables {
		if i == 0 || joins[i-1] == nil || joins[i-1].On == nil {
			continue
		}
		// ON sees the tables up to this one.
		on := &expr.Scope{DB: sc.DB, Funcs: sc.Funcs, Joined: jp.sources[:i+1], Clause: "on clause"}
		if jt.on, err = on.Compile(joins[i-1].On.Expr); err != nil {
			return nil, err
		}
	}
	sc.Clause = "WHERE"
	if where != nil {
		if jp.where, err = sc.Compile(where); err != nil {
			return nil, err
		}
		if jp.where.HasAgg {
			return nil, sqlerr.New(sqlerr.ErInvalidUseOfGroup, "Invalid use of group function")
		}
		jp.placeFilters(sc, where)
	}
	for i, jt := range jp.Tables {
		if i == 0 {
			continue
		}
		var conds []ast.ExprNode
		if joins[i-1] != nil && joins[i-1].On != nil {
			conds = append(conds, conjuncts(joins[i-1].On.Expr)...)
		}
		if !jt.Left && where != nil {
			conds = append(conds, conjuncts(where)...)
		}
		jp.planLookup(sc, i, conds)
	}
	return jp, nil
}

// placeFilters splits WHERE into conjuncts and gives each to the first
// table after which all the columns it names are known (or to pre when it
// names none). A conjunct compiles against a prefix of the tables only if
// it names no later table, which is the test.
func (jp *Join) placeFilters(sc *expr.Scope, where ast.ExprNode) {
	db := sc.DB
	for _, c := range conjuncts(where) {
		placed := false
		for k := -1; k < len(jp.Tables) && !placed; k++ {
			prefix := &expr.Scope{DB: db, Funcs: sc.Funcs, Joined: jp.sources[:k+1], Clause: "WHERE"}
			e, err := prefix.Compile(c)
			if err != nil || e.HasAgg {
				continue
			}
			if k < 0 {
				if !e.IsConst {
					continue // RAND(), NOW() ...: per row, as written
				}
				jp.pre = append(jp.pre, e)
			} else {
				jp.Tables[k].filters = append(jp.Tables[k].filters, e)
			}
			placed = true
		}
		if !placed {
			full := &expr.Scope{DB: db, Funcs: sc.Funcs, Joined: jp.sources, Clause: "WHERE"}
			if e, err := full.Compile(c); err == nil {
				jp.rest = append(jp.rest, e)
				continue
			}
			// Only the session's scope compiles it (a subquery or an
			// outer column): keep checking the whole WHERE per row.
			jp.pre, jp.rest = nil, nil
			for _, jt := range jp.Tables {
				jt.filters = nil
			}
			return
		}
	}
	jp.where = nil
}

// passes evaluates conditions on the current row; NULL is false.
func passes(conds []*expr.Expr, ec *expr.Ctx) (bool, error) {
	for _, c := range conds {
		if ok, err := expr.EvalBool(c, ec); err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

// planLookup finds, for table i, an index whose every column is equal to
// an expression over the tables before it.
func (jp *Join) planLookup(sc *expr.Scope, i int, conds []ast.ExprNode) {
	db := sc.DB
	jt := jp.Tables[i]
	mine := &expr.Scope{DB: db, Funcs: sc.Funcs, Joined: jp.sources[i : i+1]}
	before := &expr.Scope{DB: db, Funcs: sc.Funcs, Joined: jp.sources[:i]}
	eq := map[int]*expr.Expr{}
	for _, c := range conds {
		b, ok := c.(*ast.BinaryOperationExpr)
		if !ok || b.Op != opcode.EQ {
			continue
		}
		for _, side := range [2][2]ast.ExprNode{{b.L, b.R}, {b.R, b.L}} {
			cn, ok := unparen(side[0]).(*ast.ColumnNameExpr)
			if !ok {
				continue
			}
			col, err := mine.Compile(cn)
			if err != nil || col.Col < 0 {
				continue
			}
			other, err := before.Compile(side[1])
			if err != nil || other.HasAgg {
				continue
			}
			eq[col.Col] = other
		}
	}
	pick := func(cols []int) []*expr.Expr {
		out := make([]*expr.Expr, len(cols))
		for j, c := range cols {
			if out[j] = eq[c]; out[j] == nil {
				return nil
			}
		}
		return out
	}
	if pk := jt.Table.Def.PrimaryKey(); pk != nil {
		if l := pick(pk); l != nil {
			jt.LookupPK, jt.Lookup = true, l
			return
		}
	}
	for _, unique := range []bool{true, false} {
		for idx, ix := range jt.Table.Def.Indexes {
			if ix.Primary || ix.Unique != unique {
				continue
			}
			if l := pick(ix.Cols); l != nil {
				jt.LookupIdx, jt.Lookup = idx, l
				return
			}
		}
	}
}

// Rows runs the joins: every combined row that satisfies the ON
// conditions and the WHERE clause.
func (jp *Join) Rows(ctx context.Context, x *txn.Txn, ec *expr.Ctx) ([][]types.Value, error) {
	var out [][]types.Value
	row := make([]types.Value, jp.Width)
	scans := make([][]storage.ScanItem, len(jp.Tables))
	var level func(k int) error
	level = func(k int) error {
		if err := ec.Poll(); err != nil {
			return err
		}
		if k == len(jp.Tables) {
			ec.Row = row
			if jp.where != nil {
				ok, err := expr.EvalBool(jp.where, ec)
				if err != nil || !ok {
					return err
				}
			}
			if ok, err := passes(jp.rest, ec); err != nil || !ok {
				return err
			}
			// The copy shares the tables' strings: only its values count.
			if err := ec.Mem.Grow(expr.RowBytes + expr.ValueBytes*int64(len(row))); err != nil {
				return err
			}
			out = append(out, append([]types.Value(nil), row...))
			return nil
		}
		jt := jp.Tables[k]
		n := len(jt.Table.Def.Columns)
		matched := false
		try := func(vals []types.Value) error {
			copy(row[jt.Off:jt.Off+n], vals)
			if jt.on != nil {
				ec.Row = row
				ok, err := expr.EvalBool(jt.on, ec)
				if err != nil || !ok {
					return err
				}
			}
			matched = true
			ec.Row = row
			if ok, err := passes(jt.filters, ec); err != nil || !ok {
				return err
			}
			return level(k + 1)
		}
		cands, err := jp.candidates(x, ec, row, k, scans)
		if err != nil {
			return err
		}
		for _, vals := range cands {
			if err := try(vals); err != nil {
				return err
			}
		}
		if !matched && jt.Left {
			for i := jt.Off; i < jt.Off+n; i++ {
				row[i] = types.Null
			}
			ec.Row = row
			if ok, err := passes(jt.filters, ec); err != nil || !ok {
				return err
			}
			return level(k + 1)
		}
		return nil
	}
	ec.Row = row
	if ok, err := passes(jp.pre, ec); err != nil || !ok {
		return nil, err
	}
	if err := level(0); err != nil {
		return nil, err
	}
	return out, nil
}

// candidates returns table k's rows to try against the partial row: by
// key lookup when planned, else every row (read once per statement).
func (jp *Join) candidates(x *txn.Txn, ec *expr.Ctx, row []types.Value, k int, scans [][]storage.ScanItem) ([][]types.Value, error) {
	jt := jp.Tables[k]
	t := ec.TableOf(jt.Table) // a derived table: this execution's rows
	if jt.Lookup != nil {
		ec.Row = row
		cols := t.Def.PrimaryKey()
		if !jt.LookupPK {
			cols = t.Def.Indexes[jt.LookupIdx].Cols
		}
		vals, ok, err := KeyValues(ec, t, cols, jt.Lookup)
		if err == nil && !ok {
			return nil, nil // a NULL key matches nothing
		}
		if err == nil {
			var out [][]types.Value
			if jt.LookupPK {
				if r := t.Lookup(storage.KeyOf(vals)); r != nil {
					if v := x.ReadSnapshot(t, r); v.Vals != nil {
						out = append(out, v.Vals)
					}
				}
				return out, nil
			}
			var kb []byte
			for _, v := range vals {
				kb = types.KeyString(kb, v)
			}
			key := string(kb)
			for _, r := range t.IndexCandidates(jt.LookupIdx, key) {
				v := x.ReadSnapshot(t, r)
				if v.Vals == nil {
					continue
				}
				if rk, ok := t.IndexKey(jt.LookupIdx, v.Vals); ok && rk == key {
					out = append(out, v.Vals)
				}
			}
			return out, nil
		}
		if err != errNotAKey {
			return nil, err
		}
		// A key value of another type: compare the long way.
	}
	if scans[k] == nil {
		scans[k] = x.Scan(t)
		if scans[k] == nil {
			scans[k] = []storage.ScanItem{}
		}
	}
	out := make([][]types.Value, 0, len(scans[k]))
	for _, it := range scans[k] {
		x.NoteRead(it.LSN)
		if it.Vals != nil {
			out = append(out, it.Vals)
		}
	}
	return out, nil
}
