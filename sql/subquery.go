package sql

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// Subqueries are planned once with the statement. An uncorrelated one runs
// at most once per execution, its rows cached in the evalCtx; a correlated
// one (it names a column of the enclosing query) runs for each row of the
// enclosing query, with that row as evalCtx.outer: its own WHERE may then
// look rows up by key from the outer column.

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
	return sc.sess.buildSubSelect(sel, sc)
}

// subqueryRows runs pl: once per statement execution if uncorrelated,
// else for the current row of the enclosing query.
func subqueryRows(c *evalCtx, pl *selectPlan) ([][]types.Value, error) {
	if r, ok := c.subq[pl]; ok {
		return r, nil
	}
	if c.x == nil || c.ctx == nil {
		return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support a subquery here")
	}
	if pl.correlated {
		res, err := c.s.runSubSelect(c.ctx, c.x, pl, c.args, c.row, c.strict)
		if err != nil {
			return nil, err
		}
		return res.Rows, nil
	}
	res, err := c.s.runSubSelect(c.ctx, c.x, pl, c.args, nil, c.strict)
	if err != nil {
		return nil, err
	}
	if c.subq == nil {
		c.subq = map[*selectPlan][][]types.Value{}
	}
	// Kept for the rest of the statement (an IN list, a scalar): charged
	// to its budget until it ends.
	var held int64
	for _, r := range res.Rows {
		held += valuesBytes(r)
	}
	if err := c.mem.grow(held); err != nil {
		return nil, err
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
	}, typ: pl.cols[0].Type, col: -1, isConst: !pl.correlated, param: -1}
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
	}, typ: tBigInt, col: -1, isConst: !pl.correlated, param: -1}, nil
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
	e := derived(func(c *evalCtx) (types.Value, error) {
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
	}, tBigInt, a)
	e.isConst = e.isConst && !pl.correlated
	return e, nil
}
