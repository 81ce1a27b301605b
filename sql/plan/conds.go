package plan

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	"github.com/plrun/plrun/sql/expr"
)

// tableSet is a set of a join's tables by position in the FROM clause
// (MySQL's limit of 61 tables keeps it in one word).
type tableSet uint64

func (s tableSet) has(i int) bool           { return s&(1<<uint(i)) != 0 }
func (s tableSet) subsetOf(o tableSet) bool { return s&^o == 0 }
func one(i int) tableSet                    { return 1 << uint(i) }

// cond is one AND-ed part of WHERE or of an ON clause, compiled against
// the whole joined row (every table's columns sit at a fixed offset, so
// one compiled expression serves any join order), with the tables it
// reads: it can be checked as soon as those are in the row.
type cond struct {
	e    *expr.Expr
	uses tableSet
	// eqs are the ways it is "column = expression" (both ways round when
	// both sides are columns): a key for looking the column's table up.
	eqs []eqSide
	// group is the outer join whose ON clause this belongs to (it decides
	// whether the join's NULL-extended side matched), or -1 (WHERE, or the
	// ON of an inner join, which filters the same way).
	group int
}

// eqSide is column col of table t equal to other, which reads the tables
// in uses (never t itself).
type eqSide struct {
	t, col int
	other  *expr.Expr
	uses   tableSet
}

// columnRefs lists the column names an expression reads outside
// subqueries; sub says it has a subquery (which may read anything).
type columnRefs struct {
	cols []*ast.ColumnName
	sub  bool
}

func (c *columnRefs) Enter(n ast.Node) (ast.Node, bool) {
	switch x := n.(type) {
	case *ast.ColumnNameExpr:
		c.cols = append(c.cols, x.Name)
		return n, true
	case *ast.SubqueryExpr, *ast.ExistsSubqueryExpr:
		c.sub = true
		return n, true
	case *ast.DefaultExpr, *ast.ValuesExpr:
		c.sub = true // reads the row being written: never placed early
		return n, true
	}
	return n, false
}

func (c *columnRefs) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// tablesOf returns the tables an expression reads; ok is false when it
// cannot be known here (a subquery, or a column not of these tables: an
// outer query's), and the expression is then checked on full rows only.
func (jp *Join) tablesOf(full *expr.Scope, e ast.ExprNode) (tableSet, bool) {
	var refs columnRefs
	e.Accept(&refs)
	if refs.sub {
		return 0, false
	}
	var s tableSet
	for _, cn := range refs.cols {
		ce, err := full.ResolveColumn(cn)
		if err != nil || ce.Source == nil {
			return 0, false
		}
		s |= one(jp.index[ce.Source])
	}
	return s, true
}

// analyze compiles a conjunct and finds its tables and its equalities.
// placed is false when it must wait for the full row.
func (jp *Join) analyze(full *expr.Scope, c ast.ExprNode, group int) (*cond, bool, error) {
	e, err := full.Compile(c)
	if err != nil {
		return nil, false, err
	}
	uses, ok := jp.tablesOf(full, c)
	if !ok || e.HasAgg {
		return &cond{e: e, group: group}, false, nil
	}
	cd := &cond{e: e, uses: uses, group: group}
	b, isBin := unparen(c).(*ast.BinaryOperationExpr)
	if !isBin || b.Op != opcode.EQ {
		return cd, true, nil
	}
	for _, side := range [2][2]ast.ExprNode{{b.L, b.R}, {b.R, b.L}} {
		cn, isCol := unparen(side[0]).(*ast.ColumnNameExpr)
		if !isCol {
			continue
		}
		col, err := full.Compile(cn)
		if err != nil || col.Source == nil {
			continue
		}
		t := jp.index[col.Source]
		other, err := full.Compile(side[1])
		if err != nil || other.HasAgg {
			continue
		}
		ou, ok := jp.tablesOf(full, side[1])
		if !ok || ou.has(t) || (ou == 0 && !other.IsConst) {
			continue
		}
		cd.eqs = append(cd.eqs, eqSide{t: t, col: col.Col, other: other, uses: ou})
	}
	return cd, true, nil
}
