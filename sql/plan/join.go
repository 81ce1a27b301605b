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
	// after are the tables that must be joined before this one: for a
	// NULL-extended table, those of the side its outer join keeps; for
	// the tables joined to an outer join's result, its tables.
	after tableSet
	// group is the outer join whose NULL-extended side this table is in
	// (Join.groups), or -1.
	group int
}

// Join is a FROM clause with joins.
type Join struct {
	Tables  []*joinTable
	sources []*expr.Source // the tables' sources, for scopes over a prefix of them
	index   map[*expr.Source]int
	Width   int
	// groups are the outer joins' NULL-extended sides: the tables of one
	// are joined one after another, and when no combination of their rows
	// passes the join's ON they go on as one NULL row.
	groups []tableSet
	// conds are the conditions placed at the first step that has their
	// tables (WHERE's and inner ONs' AND-ed parts; an outer join's ON
	// parts, which decide whether its group matched, only within the
	// group). pre are those over no table (constants, parameters): one
	// that is not true ends the join before it starts, so a 30-table join
	// WHERE 1 = 0 answers at once. rest are those that could not be placed
	// (subqueries, outer columns): checked on every full row.
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
// join order; sc becomes the scope of the combined row. resolve gives a
// FROM item's table and alias: a stored table, or the placeholder of a
// derived table or CTE whose rows each execution binds in its expr.Ctx
// (TableOf; statistics are then read from the bound rows).
func BuildJoin(sc *expr.Scope, refs *ast.TableRefsClause, where ast.ExprNode, resolve func(*ast.TableSource) (*storage.Table, string, error)) (*Join, error) {
	sources, specs, err := flattenJoin(refs.TableRefs)
	if err != nil {
		return nil, err
	}
	jp := &Join{index: map[*expr.Source]int{}}
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
		jt := &joinTable{Source: expr.Source{Table: t, Alias: alias, Off: jp.Width}}
		jp.Tables = append(jp.Tables, jt)
		jp.sources = append(jp.sources, &jt.Source)
		jp.index[&jt.Source] = i
		jp.Width += len(t.Def.Columns)
	}
	sc.Joined = jp.sources
	ons, err := jp.joinConditions(specs)
	if err != nil {
		return nil, err
	}
	for k, sp := range specs {
		if ons[k] == nil {
			continue
		}
		// ON sees the tables of its two sides.
		on := &expr.Scope{DB: sc.DB, Funcs: sc.Funcs, Joined: jp.sourcesOf(sp.left | sp.right), Clause: "on clause"}
		e, err := on.Compile(ons[k])
		if err != nil {
			return nil, err
		}
		if e.HasAgg {
			return nil, sqlerr.New(sqlerr.ErInvalidUseOfGroup, "Invalid use of group function")
		}
		// An outer join's ON decides its group's match; so does the ON of
		// an inner join inside a NULL-extended side ((a JOIN b ON x) RIGHT
		// JOIN c ON y: no a-b pair passing x is no match for c's row).
		group := -1
		if sp.outer {
			group = jp.Tables[lowest(sp.null)].group
		} else {
			for g, members := range jp.groups {
				if (sp.left | sp.right).subsetOf(members) {
					group = g
				}
			}
		}
		for _, c := range conjuncts(ons[k]) {
			if err := jp.addCond(on, on, c, group, sp.left|sp.right); err != nil {
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
			if err := jp.addCond(full, sc, c, -1, 0); err != nil {
				return nil, err
			}
		}
	}
	jp.order.Store(jp.chooseOrder(jp.boundTables(nil)))
	return jp, nil
}

// sourcesOf lists the sources of a set of tables, in the FROM order.
func (jp *Join) sourcesOf(s tableSet) []*expr.Source {
	var out []*expr.Source
	for i, src := range jp.sources {
		if s.has(i) {
			out = append(out, src)
		}
	}
	return out
}

func lowest(s tableSet) int {
	for i := 0; i < 64; i++ {
		if s.has(i) {
			return i
		}
	}
	return -1
}

// Straight fixes the join order to the FROM order (SELECT STRAIGHT_JOIN),
// as far as outer joins allow (a RIGHT JOIN's kept side still comes
// first).
func (jp *Join) Straight() {
	for i, jt := range jp.Tables {
		for k := 0; k < i; k++ {
			if !jp.Tables[k].after.has(i) {
				jt.after |= one(k)
			}
		}
	}
	jp.order.Store(jp.chooseOrder(jp.boundTables(nil)))
}

// addCond files one conjunct: in conds when its tables are known, else
// compiled in the statement's own scope (subqueries, outer columns) and
// checked on full rows. group is the outer join whose ON it is part of,
// or -1; sides are that join's tables (an ON part that cannot be placed
// is checked once they are all in the row).
func (jp *Join) addCond(scope, stmt *expr.Scope, c ast.ExprNode, group int, sides tableSet) error {
	if _, ok := jp.tablesOf(scope, c); !ok {
		e, err := stmt.Compile(c)
		if err != nil {
			return err
		}
		if group >= 0 {
			jp.conds = append(jp.conds, &cond{e: e, uses: sides, group: group})
			return nil
		}
		jp.rest = append(jp.rest, e)
		return nil
	}
	cd, _, err := jp.analyze(scope, c, group)
	if err != nil {
		return err
	}
	switch {
	case group >= 0:
		jp.conds = append(jp.conds, cd)
	case cd.uses == 0 && cd.e.IsConst:
		jp.pre = append(jp.pre, cd.e)
	case cd.uses == 0:
		jp.rest = append(jp.rest, cd.e) // RAND(), NOW() ...: per row, as written
	default:
		jp.conds = append(jp.conds, cd)
	}
	return nil
}
