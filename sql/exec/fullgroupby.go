package exec

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
)

// checkFullGroupBy is ONLY_FULL_GROUP_BY as MariaDB checks it: in a grouped
// query, every column the select list names outside an aggregate must be a
// GROUP BY column (error 1055), or the whole select item must be a GROUP BY
// expression; an aggregate query with no GROUP BY may name no column
// outside an aggregate (error 1140). MariaDB does not look at HAVING or
// ORDER BY here, nor at functional dependence on a key, and neither does
// plrun.
func (s *State) checkFullGroupBy(n *ast.SelectStmt, pl *SelectPlan, alias string) error {
	if n.Fields == nil {
		return nil
	}
	tables := groupTables(pl, alias)
	type colRef struct{ table, col string }
	grouped := map[colRef]bool{}
	groupText := map[string]bool{}
	aliasGrouped := map[string]bool{}
	if n.GroupBy != nil {
		for _, g := range n.GroupBy.Items {
			groupText[expr.RestoreString(g.Expr)] = true
			if cn, ok := g.Expr.(*ast.ColumnNameExpr); ok {
				if t, ok := tables.resolve(cn.Name); ok {
					grouped[colRef{t.alias, cn.Name.Name.L}] = true
				} else if cn.Name.Table.L == "" {
					aliasGrouped[cn.Name.Name.L] = true // a select-list alias
				}
			}
		}
	}
	for _, f := range n.Fields.Fields {
		if f.WildCard != nil {
			for _, t := range tables {
				if w := f.WildCard.Table.L; w != "" && w != t.alias {
					continue
				}
				for _, c := range t.t.Def.Columns {
					if !grouped[colRef{t.alias, strings.ToLower(c.Name)}] {
						return s.notGrouped(n, t, c.Name)
					}
				}
			}
			continue
		}
		if groupText[expr.RestoreString(f.Expr)] || (f.AsName.L != "" && aliasGrouped[f.AsName.L]) {
			continue
		}
		var bad error
		walkOutsideAggregates(f.Expr, func(cn *ast.ColumnNameExpr) {
			t, ok := tables.resolve(cn.Name)
			if !ok || bad != nil {
				return // an outer query's column: constant here
			}
			if !grouped[colRef{t.alias, cn.Name.Name.L}] {
				bad = s.notGrouped(n, t, cn.Name.Name.O)
			}
		})
		if bad != nil {
			return bad
		}
	}
	return nil
}

func (s *State) notGrouped(n *ast.SelectStmt, t groupTable, col string) error {
	if n.GroupBy == nil {
		return sqlerr.New(sqlerr.ErMixOfGroupFunc, "Mixing of GROUP columns (MIN(),MAX(),COUNT(),...) with no GROUP columns is illegal if there is no GROUP BY clause")
	}
	return sqlerr.New(sqlerr.ErWrongFieldWithGroup, "'%s.%s.%s' isn't in GROUP BY", t.t.Def.DB, t.alias, col)
}

// groupTable is one table of the query, by the name the query gives it.
type groupTable struct {
	t     *storage.Table
	alias string // lower case
}

type groupTableList []groupTable

func groupTables(pl *SelectPlan, alias string) groupTableList {
	if pl.join != nil {
		var ts groupTableList
		for _, jt := range pl.join.Tables {
			ts = append(ts, groupTable{jt.Table, strings.ToLower(jt.Alias)})
		}
		return ts
	}
	if pl.t == nil {
		return nil
	}
	if alias == "" {
		alias = pl.t.Def.Name
	}
	return groupTableList{{pl.t, strings.ToLower(alias)}}
}

// resolve finds the table a column name belongs to.
func (ts groupTableList) resolve(name *ast.ColumnName) (groupTable, bool) {
	for _, t := range ts {
		if name.Table.L != "" && name.Table.L != t.alias {
			continue
		}
		for _, c := range t.t.Def.Columns {
			if strings.EqualFold(c.Name, name.Name.O) {
				return t, true
			}
		}
	}
	return groupTable{}, false
}

// walkOutsideAggregates calls fn for every column e names outside an
// aggregate function and outside a subquery.
func walkOutsideAggregates(e ast.ExprNode, fn func(*ast.ColumnNameExpr)) {
	e.Accept(&groupWalker{fn: fn})
}

type groupWalker struct{ fn func(*ast.ColumnNameExpr) }

func (w *groupWalker) Enter(n ast.Node) (ast.Node, bool) {
	switch x := n.(type) {
	case *ast.AggregateFuncExpr, *ast.SubqueryExpr, *ast.WindowFuncExpr:
		return n, true
	case *ast.ColumnNameExpr:
		w.fn(x)
		return n, true
	}
	return n, false
}

func (w *groupWalker) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// selectAggregates reports whether n's select list, HAVING or ORDER BY
// has an aggregate of its own (not one of a subquery's).
func selectAggregates(n *ast.SelectStmt) bool {
	f := &aggFinder{}
	if n.Fields != nil {
		for _, fl := range n.Fields.Fields {
			if fl.Expr != nil {
				fl.Expr.Accept(f)
			}
		}
	}
	if n.Having != nil && n.Having.Expr != nil {
		n.Having.Expr.Accept(f)
	}
	if n.OrderBy != nil {
		for _, it := range n.OrderBy.Items {
			it.Expr.Accept(f)
		}
	}
	return f.found
}

type aggFinder struct{ found bool }

func (f *aggFinder) Enter(n ast.Node) (ast.Node, bool) {
	switch n.(type) {
	case *ast.AggregateFuncExpr:
		f.found = true
		return n, true
	case *ast.SubqueryExpr, *ast.WindowFuncExpr:
		return n, true
	}
	return n, f.found
}

func (f *aggFinder) Leave(n ast.Node) (ast.Node, bool) { return n, true }
