package plan

import (
	"strings"
	"sync/atomic"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
)

// joinTable is one table of a SELECT's FROM with joins, in the FROM
// order: its columns sit at Off in the joined row whatever the order it
// is joined in.
type joinTable struct {
	expr.Source
	// on is a LEFT JOIN's ON clause, checked when this table's row is
	// added (a row of the tables before with no match is NULL-extended).
	// An inner join's ON is a filter like WHERE's conditions (conds).
	on *expr.Expr
	// after are the tables that must be joined before this one: for a
	// NULL-extended table, all those of its left side; for the tables
	// after it, it and those.
	after tableSet
	// onParts counts the ON clause's AND-ed parts (EXPLAIN's "Using where"
	// when a key does not answer them all).
	onParts int
}

// Join is a FROM clause with joins.
type Join struct {
	Tables  []*joinTable
	sources []*expr.Source // the tables' sources, for scopes over a prefix of them
	index   map[*expr.Source]int
	Width   int
	// conds are the conditions placed at the first step that has their
	// tables (WHERE's and inner ONs' AND-ed parts; a LEFT JOIN's ON parts
	// too, for its lookup keys only). pre are those over no table
	// (constants, parameters): one that is not true ends the join before
	// it starts, so a 30-table join WHERE 1 = 0 answers at once. rest are
	// those that could not be placed (subqueries, outer columns): checked
	// on every full row.
	conds     []*cond
	pre, rest []*expr.Expr
	star      []StarCol // SELECT *, in MySQL's order
	// order is the chosen order (order.go), replaced when the tables'
	// sizes have moved enough since it was chosen.
	order atomic.Pointer[joinOrder]
}

// IsJoin reports whether a FROM clause has more than one table.
func IsJoin(refs *ast.TableRefsClause) bool {
	return refs != nil && refs.TableRefs != nil && refs.TableRefs.Right != nil
}

// maxJoinTables is MySQL's limit on the tables of one join.
const maxJoinTables = 61

// BuildJoin resolves the tables, compiles the conditions and chooses the
// join order; sc becomes the scope of the combined row. resolve finds a
// table by name (a base table, or a derived table materialized for the
// execution: any *storage.Table).
func BuildJoin(sc *expr.Scope, refs *ast.TableRefsClause, where ast.ExprNode, resolve func(*ast.TableName) (*storage.Table, error)) (*Join, error) {
	sources, joins, err := flattenJoin(refs.TableRefs)
	if err != nil {
		return nil, err
	}
	if len(sources) > maxJoinTables {
		return nil, sqlerr.New(sqlerr.ErTooManyTables, "Too many tables; MariaDB can only use %d tables in a join", maxJoinTables)
	}
	jp := &Join{index: map[*expr.Source]int{}}
	for i, src := range sources {
		tn, ok := src.Source.(*ast.TableName)
		if !ok {
			return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support derived tables")
		}
		t, err := resolve(tn)
		if err != nil {
			return nil, err
		}
		alias := tn.Name.O
		if src.AsName.O != "" {
			alias = src.AsName.O
		}
		for _, o := range jp.Tables {
			if strings.EqualFold(o.Alias, alias) {
				return nil, sqlerr.New(sqlerr.ErNonUniqTable, "Not unique table/alias: '%s'", alias)
			}
		}
		jt := &joinTable{Source: expr.Source{Table: t, Alias: alias, Off: jp.Width}}
		jp.Tables = append(jp.Tables, jt)
		jp.sources = append(jp.sources, &jt.Source)
		jp.index[&jt.Source] = i
		jp.Width += len(t.Def.Columns)
	}
	sc.Joined = jp.sources
	ons, err := jp.joinConditions(joins, false)
	if err != nil {
		return nil, err
	}
	for i, jt := range jp.Tables {
		if ons[i] == nil {
			continue
		}
		// ON sees the tables up to this one.
		on := &expr.Scope{DB: sc.DB, Funcs: sc.Funcs, Joined: jp.sources[:i+1], Clause: "on clause"}
		e, err := on.Compile(ons[i])
		if err != nil {
			return nil, err
		}
		if e.HasAgg {
			return nil, sqlerr.New(sqlerr.ErInvalidUseOfGroup, "Invalid use of group function")
		}
		owner := -1
		switch {
		case jt.Left:
			jt.on, owner = e, i
		case i == 1 && jp.Tables[0].Left: // RIGHT JOIN: table 0 is the NULL-extended one
			jp.Tables[0].on, owner = e, 0
		}
		if owner >= 0 {
			jp.Tables[owner].onParts = len(conjuncts(ons[i]))
		}
		for _, c := range conjuncts(ons[i]) {
			if err := jp.addCond(on, on, c, owner); err != nil {
				return nil, err
			}
		}
	}
	sc.Clause = "WHERE"
	if where != nil {
		w, err := sc.Compile(where)
		if err != nil {
			return nil, err
		}
		if w.HasAgg {
			return nil, sqlerr.New(sqlerr.ErInvalidUseOfGroup, "Invalid use of group function")
		}
		full := &expr.Scope{DB: sc.DB, Funcs: sc.Funcs, Joined: jp.sources, Clause: "WHERE"}
		for _, c := range conjuncts(where) {
			if err := jp.addCond(full, sc, c, -1); err != nil {
				return nil, err
			}
		}
	}
	jp.order.Store(jp.chooseOrder())
	return jp, nil
}

// Straight fixes the join order to the FROM order (SELECT STRAIGHT_JOIN).
func (jp *Join) Straight() {
	for i := 1; i < len(jp.Tables); i++ {
		if !(i == 1 && jp.Tables[0].Left) {
			jp.Tables[i].after = one(i) - 1
		}
	}
	jp.order.Store(jp.chooseOrder())
}

// addCond files one conjunct: in conds when its tables are known, else
// compiled in the statement's own scope (subqueries, outer columns) and
// checked on full rows. owner is the LEFT-joined table whose ON it is
// part of, or -1.
func (jp *Join) addCond(scope, stmt *expr.Scope, c ast.ExprNode, owner int) error {
	if _, ok := jp.tablesOf(scope, c); !ok {
		if owner >= 0 {
			return nil // checked by the whole ON
		}
		e, err := stmt.Compile(c)
		if err != nil {
			return err
		}
		jp.rest = append(jp.rest, e)
		return nil
	}
	cd, _, err := jp.analyze(scope, c, owner)
	if err != nil {
		return err
	}
	switch {
	case owner >= 0:
		if len(cd.eqs) > 0 {
			jp.conds = append(jp.conds, cd)
		}
	case cd.uses == 0 && cd.e.IsConst:
		jp.pre = append(jp.pre, cd.e)
	case cd.uses == 0:
		jp.rest = append(jp.rest, cd.e) // RAND(), NOW() ...: per row, as written
	default:
		jp.conds = append(jp.conds, cd)
	}
	return nil
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
			if err := walk(x.Left, via); err != nil {
				return err
			}
			if x.Tp == ast.RightJoin && len(sources) > 1 {
				// After other joins, the tables before would be NULL-extended
				// together, as one group.
				return sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support RIGHT JOIN after other joins")
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
