package expr

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// Subqueries are planned once with the statement. An uncorrelated one runs
// at most once per execution, its rows cached in the Ctx; a correlated
// one (it names a column of the enclosing query) runs for each row of the
// enclosing query, with that row as Ctx.Outer: its own WHERE may then
// look rows up by key from the outer column.

// Subquery is a planned subquery; the statement executor plans and runs
// it (SubqueryPlanner), expressions only use its rows.
type Subquery interface {
	// Correlated reports whether it names a column of the enclosing query.
	Correlated() bool
	// ColumnTypes are the types of its select list.
	ColumnTypes() []types.ColType
	// Run executes it in c's statement; outer is the enclosing query's
	// current row when it is correlated.
	Run(c *Ctx, outer []types.Value) ([][]types.Value, error)
}

// SubqueryPlanner plans the SELECT of a subquery in the scope outer.
type SubqueryPlanner interface {
	PlanSubquery(q ast.ResultSetNode, outer *Scope) (Subquery, error)
}

// compileSubquery plans the SELECT of a subquery expression.
func (sc *Scope) compileSubquery(n ast.ExprNode) (Subquery, error) {
	sub, ok := n.(*ast.SubqueryExpr)
	if !ok {
		return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support this subquery")
	}
	if sc.Sub == nil {
		return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support this subquery")
	}
	return sc.Sub.PlanSubquery(sub.Query, sc)
}

// subqueryRows runs pl: once per statement execution if uncorrelated,
// else for the current row of the enclosing query.
func subqueryRows(c *Ctx, pl Subquery) ([][]types.Value, error) {
	if r, ok := c.subq[pl]; ok {
		return r, nil
	}
	if c.Txn == nil || c.Context == nil {
		return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support a subquery here")
	}
	if pl.Correlated() {
		return pl.Run(c, c.Row)
	}
	rows, err := pl.Run(c, nil)
	if err != nil {
		return nil, err
	}
	if c.subq == nil {
		c.subq = map[Subquery][][]types.Value{}
	}
	// Kept for the rest of the statement (an IN list, a scalar): charged
	// to its budget until it ends.
	var held int64
	for _, r := range rows {
		held += ValuesBytes(r)
	}
	if err := c.Mem.Grow(held); err != nil {
		return nil, err
	}
	c.subq[pl] = rows
	return rows, nil
}

func oneColumn(pl Subquery) error {
	if len(pl.ColumnTypes()) != 1 {
		return sqlerr.New(sqlerr.ErOperandColumns, "Operand should contain 1 column(s)")
	}
	return nil
}

// compileScalarSubquery is (SELECT ...) used as a value.
func (sc *Scope) compileScalarSubquery(n *ast.SubqueryExpr) (*Expr, error) {
	pl, err := sc.compileSubquery(n)
	if err != nil {
		return nil, err
	}
	if err := oneColumn(pl); err != nil {
		return nil, err
	}
	e := &Expr{Fn: func(c *Ctx) (types.Value, error) {
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
	}, Type: pl.ColumnTypes()[0], Col: -1, IsConst: !pl.Correlated(), param: -1}
	return e, nil
}

// compileExists is [NOT] EXISTS (SELECT ...).
func (sc *Scope) compileExists(n *ast.ExistsSubqueryExpr) (*Expr, error) {
	pl, err := sc.compileSubquery(n.Sel)
	if err != nil {
		return nil, err
	}
	not := n.Not
	return &Expr{Fn: func(c *Ctx) (types.Value, error) {
		rows, err := subqueryRows(c, pl)
		if err != nil {
			return types.Null, err
		}
		return BoolValue((len(rows) > 0) != not), nil
	}, Type: TBool, Col: -1, IsConst: !pl.Correlated(), param: -1, NotNull: true}, nil
}

// compileInSubquery is x [NOT] IN (SELECT ...), with SQL's NULL rules.
func (sc *Scope) compileInSubquery(x *ast.PatternInExpr) (*Expr, error) {
	a, err := sc.Compile(x.Expr)
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
	e := derived(func(c *Ctx) (types.Value, error) {
		v, err := a.Fn(c)
		if err != nil {
			return types.Null, err
		}
		rows, err := subqueryRows(c, pl)
		if err != nil {
			return types.Null, err
		}
		if len(rows) == 0 {
			return BoolValue(not), nil // even NULL is not IN an empty set
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
				return BoolValue(!not), nil
			}
		}
		if sawNull {
			return types.Null, nil
		}
		return BoolValue(not), nil
	}, tInSubquery, a)
	e.IsConst = e.IsConst && !pl.Correlated()
	e.NotNull = false // a NULL among the rows makes it NULL
	return e, nil
}

// tInSubquery is the type of x IN (SELECT ...) and x = ANY (SELECT ...):
// MariaDB's Item_in_optimizer, a BIGINT(21) (not a comparison's INT(1)).
var tInSubquery = types.ColType{Base: types.TBigInt, Length: 21}
