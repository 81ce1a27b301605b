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

// joinConditions works out each table's join: its ON condition (written,
// or the equalities of USING / NATURAL), whether it is NULL-extended (LEFT,
// or the left table of a RIGHT JOIN, which is a LEFT JOIN the other way
// round), which tables must be joined before it, and the * list. ons[i]
// is table i's condition.
func (jp *Join) joinConditions(joins []*ast.Join, straight bool) ([]ast.ExprNode, error) {
	ons := make([]ast.ExprNode, len(jp.Tables))
	for c := range jp.Tables[0].Table.Def.Columns {
		jp.star = append(jp.star, StarCol{0, c})
	}
	var barrier tableSet // every table after must come after these
	for i := 1; i < len(jp.Tables); i++ {
		j := joins[i-1]
		jt := jp.Tables[i]
		right := j != nil && j.Tp == ast.RightJoin
		if j != nil && j.On != nil {
			ons[i] = j.On.Expr
		}
		if j != nil && (j.NaturalJoin || len(j.Using) > 0) {
			on, err := jp.using(i, j, right)
			if err != nil {
				return nil, err
			}
			ons[i] = on
		} else {
			for c := range jt.Table.Def.Columns {
				jp.star = append(jp.star, StarCol{i, c})
			}
		}
		all := one(i) - 1 // the tables before i
		switch {
		case right: // only ever the first join (flattenJoin)
			jp.Tables[0].Left = true
			jp.Tables[0].after = one(1)
			barrier = one(0) | one(1)
		case j != nil && j.Tp == ast.LeftJoin:
			jt.Left = true
			jt.after = all
			barrier = all | one(i)
		case straight || j != nil && j.StraightJoin:
			jt.after = all
		default:
			jt.after = barrier
		}
	}
	return ons, nil
}

// using builds the ON condition of table i's USING or NATURAL join with
// the tables before it, merges the named columns in the * list, and hides
// the merged-away copy from unqualified names (which then mean the kept
// one: the left table's, or the right's for a RIGHT JOIN).
func (jp *Join) using(i int, j *ast.Join, right bool) (ast.ExprNode, error) {
	jt := jp.Tables[i]
	def := jt.Table.Def
	var names []string
	seen := map[string]bool{}
	if j.NaturalJoin {
		// Common names, in the order of the side whose columns come first.
		if right {
			for _, c := range def.Columns {
				if jp.findStar(c.Name) >= 0 && !seen[strings.ToLower(c.Name)] {
					names, seen[strings.ToLower(c.Name)] = append(names, c.Name), true
				}
			}
		} else {
			for _, sc := range jp.star {
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
	var on ast.ExprNode
	left := map[string]int{} // name -> position in the * list so far
	for _, n := range names {
		k := jp.findStar(n)
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
	for _, n := range names {
		l := jp.star[left[strings.ToLower(n)]]
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
			jp.hide(jp.star[left[strings.ToLower(n)]])
		} else {
			merged = append(merged, jp.star[left[strings.ToLower(n)]])
			jp.hide(StarCol{i, def.ColumnIndex(n)})
		}
	}
	for _, sc := range jp.star {
		if _, m := left[strings.ToLower(jp.colName(sc))]; !m || jp.star[left[strings.ToLower(jp.colName(sc))]] != sc {
			restLeft = append(restLeft, sc)
		}
	}
	for c, col := range def.Columns {
		if !seen[strings.ToLower(col.Name)] {
			restRight = append(restRight, StarCol{i, c})
		}
	}
	if right {
		jp.star = append(append(merged, restRight...), restLeft...)
	} else {
		jp.star = append(append(merged, restLeft...), restRight...)
	}
	return on, nil
}

// findStar finds the one column named n in the * list so far: its
// position, -1 for none, -2 for more than one.
func (jp *Join) findStar(n string) int {
	found := -1
	for k, sc := range jp.star {
		if strings.EqualFold(jp.colName(sc), n) {
			if found >= 0 {
				return -2
			}
			found = k
		}
	}
	return found
}

// hide makes a merged-away column invisible to unqualified names.
func (jp *Join) hide(sc StarCol) {
	src := &jp.Tables[sc.Table].Source
	if src.Merged == nil {
		src.Merged = map[string]bool{}
	}
	src.Merged[strings.ToLower(jp.colName(sc))] = true
}
