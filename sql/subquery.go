package sql

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// Subqueries are uncorrelated: each is planned once with the statement
// and run at most once per execution, its rows cached in the evalCtx.
// A subquery that names a column of the enclosing query is refused
// (1235) rather than answered wrongly.

// compileSubquery plans the SELECT of a subquery expression.
func (sc *scope) compileSubquery(n ast.ExprNode) (*selectPlan, error) {
	sub, ok := n.(*ast.SubqueryExpr)
	if !ok {
		return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support this subquery")
	}
	sel, ok := sub.Query.(*ast.SelectStmt)
	if !ok || sc.sess == nil {
		return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support this subquery")
	}
	pl, err := sc.sess.buildSelect(sel)
	if err != nil {
		if e, ok := sqlerr.As(err); ok && e.Code == sqlerr.ErBadField && sc.namesOuterColumn(sel) {
			return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support correlated subqueries")
		}
		return nil, err
	}
	return pl, nil
}

// namesOuterColumn reports whether sel mentions a column the enclosing
// scope knows (so a failure to resolve it inside means correlation).
func (sc *scope) namesOuterColumn(sel *ast.SelectStmt) bool {
	var v columnCollector
	sel.Accept(&v)
	for _, cn := range v.names {
		if _, err := sc.resolveColumn(cn); err == nil {
			return true
		}
	}
	return false
}

type columnCollector struct{ names []*ast.ColumnName }

func (v *columnCollector) Enter(n ast.Node) (ast.Node, bool) {
	if c, ok := n.(*ast.ColumnNameExpr); ok {
		v.names = append(v.names, c.Name)
	}
	return n, false
}
func (v *columnCollector) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// subqueryRows runs pl once per statement execution.
func subqueryRows(c *evalCtx, pl *selectPlan) ([][]types.Value, error) {
	if r, ok := c.subq[pl]; ok {
		return r, nil
	}
	if c.x == nil || c.ctx == nil {
		return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support a subquery here")
	}
	res, err := c.s.runSelect(c.ctx, c.x, pl, c.args)
	if err != nil {
		return nil, err
	}
	if c.subq == nil {
		c.subq = map[*selectPlan][][]types.Value{}
	}
	c.subq[pl] = res.Rows
	return res.Rows, nil
}

func oneColumn(pl *selectPlan) error {
	if len(pl.outs) != 1 {
		return sqlerr.New(sqlerr.ErOperandColumns, "Operand should contain 1 column(s)")
	}
	return nil
}

// compileScalarSubquery is (SELECT ...) used as a value.
func (sc *scope) compileScalarSubquery(n *ast.SubqueryExpr) (*cexpr, error) {
	pl, err := sc.compileSubquery(n)
	if err != nil {
		return nil, err
	}
	if err := oneColumn(pl); err != nil {
		return nil, err
	}
	e := &cexpr{fn: func(c *evalCtx) (types.Value, error) {
		rows, err := subqueryRows(c, pl)
		if err != nil {
			return types.Null, err
		}
		switch len(rows) {
		case 0:
			return types.Null, nil
		case 1:
			return rows[0][0], nil
		}
		return types.Null, sqlerr.New(sqlerr.ErSubqueryNo1Row, "Subquery returns more than 1 row")
	}, typ: pl.cols[0].Type, col: -1, isConst: true, param: -1}
	return e, nil
}

// compileExists is [NOT] EXISTS (SELECT ...).
func (sc *scope) compileExists(n *ast.ExistsSubqueryExpr) (*cexpr, error) {
	pl, err := sc.compileSubquery(n.Sel)
	if err != nil {
		return nil, err
	}
	not := n.Not
	return &cexpr{fn: func(c *evalCtx) (types.Value, error) {
		rows, err := subqueryRows(c, pl)
		if err != nil {
			return types.Null, err
		}
		return boolValue((len(rows) > 0) != not), nil
	}, typ: tBigInt, col: -1, isConst: true, param: -1}, nil
}

// compileInSubquery is x [NOT] IN (SELECT ...), with SQL's NULL rules.
func (sc *scope) compileInSubquery(x *ast.PatternInExpr) (*cexpr, error) {
	a, err := sc.compile(x.Expr)
	if err != nil {
		return nil, err
	}
	pl, err := sc.compileSubquery(x.Sel)
	if err != nil {
		return nil, err
	}
	if err := oneColumn(pl); err != nil {
		return nil, err
	}
	not := x.Not
	return derived(func(c *evalCtx) (types.Value, error) {
		v, err := a.fn(c)
		if err != nil {
			return types.Null, err
		}
		rows, err := subqueryRows(c, pl)
		if err != nil {
			return types.Null, err
		}
		if len(rows) == 0 {
			return boolValue(not), nil // even NULL is not IN an empty set
		}
		if v.IsNull() {
			return types.Null, nil
		}
		sawNull := false
		for _, r := range rows {
			if r[0].IsNull() {
				sawNull = true
				continue
			}
			if types.Compare(v, r[0]) == 0 {
				return boolValue(!not), nil
			}
		}
		if sawNull {
			return types.Null, nil
		}
		return boolValue(not), nil
	}, tBigInt, a), nil
}
