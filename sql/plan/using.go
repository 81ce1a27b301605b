package plan

import (
	"sort"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	"github.com/plrun/plrun/sqlerr"
)

// StarCol is one column of a join's SELECT *: column Col of table Table
// (a position in Join.Tables).
type StarCol struct{ Table, Col int }

// Star lists the columns of * (only == "") or of only.*, as MySQL orders
// them: the columns a USING or NATURAL join merged come first, once, then
// the others in the FROM order. ok is false when only names no table.
func (jp *Join) Star(only string) ([]StarCol, bool) {
	if only == "" {
		return jp.star, true
	}
	for i, jt := range jp.Tables {
		if strings.EqualFold(only, jt.Alias) {
			out := make([]StarCol, len(jt.Table.Def.Columns))
			for c := range out {
				out[c] = StarCol{i, c}
			}
			return out, true
		}
	}
	return nil, false
}

func (jp *Join) colName(sc StarCol) string {
	return jp.Tables[sc.Table].Table.Def.Columns[sc.Col].Name
}

// joinConditions works out each join's ON condition (written, or the
// equalities of USING / NATURAL), the NULL-extended groups of the outer
// joins, which tables must be joined before which, and the * list.
// ons[k] is specs[k]'s condition.
func (jp *Join) joinConditions(specs []joinSpec) ([]ast.ExprNode, error) {
	ons := make([]ast.ExprNode, len(specs))
	for i, jt := range jp.Tables {
		jt.group = -1
		for c := range jt.Table.Def.Columns {
			jp.star = append(jp.star, StarCol{i, c})
		}
	}
	var outers []tableSet // each outer join's tables (both sides), so far
	barrierOf := func(s tableSet) tableSet {
		var b tableSet
		for _, o := range outers {
			if o.subsetOf(s) {
				b |= o
			}
		}
		return b
	}
	for k, sp := range specs {
		j := sp.node
		if j.On != nil {
			ons[k] = j.On.Expr
		}
		if j.NaturalJoin || len(j.Using) > 0 {
			on, err := jp.using(sp, j.Tp == ast.RightJoin)
			if err != nil {
				return nil, err
			}
			ons[k] = on
		}
		after := func(set, req tableSet) {
			for i := range jp.Tables {
				if set.has(i) {
					jp.Tables[i].after |= req
				}
			}
		}
		if sp.outer {
			g := len(jp.groups)
			jp.groups = append(jp.groups, sp.null)
			for i, jt := range jp.Tables {
				if sp.null.has(i) {
					jt.group, jt.Left = g, true
				}
			}
			after(sp.null, sp.keep)
			outers = append(outers, sp.left|sp.right)
		} else {
			after(sp.right, barrierOf(sp.left))
			if j.StraightJoin {
				after(sp.right, sp.left)
			}
		}
	}
	return ons, nil
}

// using builds the ON condition of a USING or NATURAL join of one table
// (the right operand) with the tables before it, merges the named columns
// in the * list, and hides the merged-away copy from unqualified names
// (which then mean the kept one: the left table's, or the right's for a
// RIGHT JOIN).
func (jp *Join) using(sp joinSpec, right bool) (ast.ExprNode, error) {
	j := sp.node
	i := sp.rightTable
	jt := jp.Tables[i]
	def := jt.Table.Def
	// The operands' part of the * list: contiguous, the left side's
	// entries then table i's.
	lo, hi := -1, -1
	for k, sc := range jp.star {
		if (sp.left | one(i)).has(sc.Table) {
			if lo < 0 {
				lo = k
			}
			hi = k + 1
		}
	}
	var leftStar []StarCol
	for _, sc := range jp.star[lo:hi] {
		if sc.Table != i {
			leftStar = append(leftStar, sc)
		}
	}
	find := func(n string) int { // in leftStar: position, -1 none, -2 several
		found := -1
		for k, sc := range leftStar {
			if strings.EqualFold(jp.colName(sc), n) {
				if found >= 0 {
					return -2
				}
				found = k
			}
		}
		return found
	}
	var names []string
	seen := map[string]bool{}
	if j.NaturalJoin {
		if right {
			for _, c := range def.Columns {
				if find(c.Name) != -1 && !seen[strings.ToLower(c.Name)] {
					names, seen[strings.ToLower(c.Name)] = append(names, c.Name), true
				}
			}
		} else {
			for _, sc := range leftStar {
				n := jp.colName(sc)
				if def.ColumnIndex(n) >= 0 && !seen[strings.ToLower(n)] {
					names, seen[strings.ToLower(n)] = append(names, n), true
				}
			}
		}
	} else {
		for _, u := range j.Using {
			if !seen[u.Name.L] {
				names, seen[u.Name.L] = append(names, u.Name.O), true
			}
		}
	}
	left := map[string]int{} // name -> position in leftStar
	for _, n := range names {
		k := find(n)
		if k == -2 {
			return nil, sqlerr.New(sqlerr.ErNonUniq, "Column '%s' in FROM is ambiguous", n)
		}
		if k < 0 || def.ColumnIndex(n) < 0 {
			return nil, sqlerr.New(sqlerr.ErBadField, "Unknown column '%s' in 'FROM'", n)
		}
		left[strings.ToLower(n)] = k
	}
	// Merged columns come in the order of the side whose columns lead.
	sort.SliceStable(names, func(a, b int) bool {
		if right {
			return def.ColumnIndex(names[a]) < def.ColumnIndex(names[b])
		}
		return left[strings.ToLower(names[a])] < left[strings.ToLower(names[b])]
	})
	var on ast.ExprNode
	for _, n := range names {
		l := leftStar[left[strings.ToLower(n)]]
		eq := &ast.BinaryOperationExpr{Op: opcode.EQ,
			L: &ast.ColumnNameExpr{Name: &ast.ColumnName{Table: ast.NewCIStr(jp.Tables[l.Table].Alias), Name: ast.NewCIStr(jp.colName(l))}},
			R: &ast.ColumnNameExpr{Name: &ast.ColumnName{Table: ast.NewCIStr(jt.Alias), Name: ast.NewCIStr(def.Columns[def.ColumnIndex(n)].Name)}}}
		if on == nil {
			on = eq
		} else {
			on = &ast.BinaryOperationExpr{Op: opcode.LogicAnd, L: on, R: eq}
		}
	}
	// The new * list: merged columns, then the rest of each side.
	var merged, restLeft, restRight []StarCol
	for _, n := range names {
		if right {
			merged = append(merged, StarCol{i, def.ColumnIndex(n)})
			jp.hide(leftStar[left[strings.ToLower(n)]])
		} else {
			merged = append(merged, leftStar[left[strings.ToLower(n)]])
			jp.hide(StarCol{i, def.ColumnIndex(n)})
		}
	}
	for k, sc := range leftStar {
		if p, m := left[strings.ToLower(jp.colName(sc))]; !m || p != k {
			restLeft = append(restLeft, sc)
		}
	}
	for c, col := range def.Columns {
		if !seen[strings.ToLower(col.Name)] {
			restRight = append(restRight, StarCol{i, c})
		}
	}
	var seg []StarCol
	if right {
		seg = append(append(merged, restRight...), restLeft...)
	} else {
		seg = append(append(merged, restLeft...), restRight...)
	}
	jp.star = append(append(append([]StarCol(nil), jp.star[:lo]...), seg...), jp.star[hi:]...)
	return on, nil
}

// hide makes a merged-away column invisible to unqualified names.
func (jp *Join) hide(sc StarCol) {
	src := &jp.Tables[sc.Table].Source
	if src.Merged == nil {
		src.Merged = map[string]bool{}
	}
	src.Merged[strings.ToLower(jp.colName(sc))] = true
}
