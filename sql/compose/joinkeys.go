package compose

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	"github.com/plrun/plrun/storage"
)

// A derived table, CTE or view has no keys of its own, so a join to one
// would scan it for every row of the tables before it. As MariaDB's
// derived_with_keys does, the columns of one that an ON or WHERE
// equality compares get an index: the join planner then looks its rows
// up by key, and each execution's transient table builds the index as
// its rows are loaded.

// JoinKeys are, per FROM alias (lower case; "" for unqualified names),
// the column names (lower case) an equality of ON or WHERE compares.
type JoinKeys map[string]map[string]bool

// CollectJoinKeys finds the equalities of a FROM's ON conditions and WHERE.
func CollectJoinKeys(from *ast.TableRefsClause, where ast.ExprNode) JoinKeys {
	keys := JoinKeys{}
	var conds []ast.ExprNode
	var walk func(n ast.ResultSetNode)
	walk = func(n ast.ResultSetNode) {
		if j, ok := n.(*ast.Join); ok {
			if j.Left != nil {
				walk(j.Left)
			}
			if j.Right != nil {
				walk(j.Right)
			}
			if j.On != nil {
				conds = append(conds, j.On.Expr)
			}
		}
	}
	if from != nil && from.TableRefs != nil {
		walk(from.TableRefs)
	}
	if where != nil {
		conds = append(conds, where)
	}
	var visit func(e ast.ExprNode)
	visit = func(e ast.ExprNode) {
		switch x := e.(type) {
		case *ast.ParenthesesExpr:
			visit(x.Expr)
		case *ast.BinaryOperationExpr:
			switch x.Op {
			case opcode.LogicAnd:
				visit(x.L)
				visit(x.R)
			case opcode.EQ:
				for _, side := range []ast.ExprNode{x.L, x.R} {
					if cn, ok := side.(*ast.ColumnNameExpr); ok {
						t := cn.Name.Table.L
						if keys[t] == nil {
							keys[t] = map[string]bool{}
						}
						keys[t][cn.Name.Name.L] = true
					}
				}
			}
		}
	}
	for _, c := range conds {
		visit(c)
	}
	return keys
}

// AddKeys indexes def's columns that k names for alias.
func (k JoinKeys) AddKeys(def *storage.TableDef, alias string) {
	for i, c := range def.Columns {
		name := strings.ToLower(c.Name)
		if !k[strings.ToLower(alias)][name] && !k[""][name] {
			continue
		}
		dup := false
		for _, ix := range def.Indexes {
			dup = dup || (len(ix.Cols) == 1 && ix.Cols[0] == i)
		}
		if !dup {
			def.Indexes = append(def.Indexes, storage.IndexDef{Name: fmt.Sprintf("key%d", i), Cols: []int{i}})
		}
	}
}
