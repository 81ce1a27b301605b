package expr

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// compileAnyAll is x op ANY|SOME|ALL (SELECT ...) under three-valued
// logic, as the SQL standard and MariaDB define it:
//   - ANY is TRUE if x op r is TRUE for some row r; else NULL if x op r
//     was NULL for some row (x NULL, or r NULL); else FALSE — so over an
//     empty set it is FALSE, even for a NULL x.
//   - ALL is FALSE if x op r is FALSE for some row; else NULL if some was
//     NULL; else TRUE — so over an empty set it is TRUE, even for NULL x.
func (sc *Scope) compileAnyAll(x *ast.CompareSubqueryExpr) (*Expr, error) {
	a, err := sc.Compile(x.L)
	if err != nil {
		return nil, err
	}
	pl, err := sc.compileSubquery(x.R)
	if err != nil {
		return nil, err
	}
	if err := oneColumn(pl); err != nil {
		return nil, err
	}
	cmp, ok := comparisons[x.Op]
	if !ok {
		return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support the operator '%s' with ANY/ALL", x.Op.String())
	}
	all := x.All
	e := derived(func(c *Ctx) (types.Value, error) {
		v, err := a.Fn(c)
		if err != nil {
			return types.Null, err
		}
		rows, err := subqueryRows(c, pl)
		if err != nil {
			return types.Null, err
		}
		sawNull := false
		for _, r := range rows {
			if v.IsNull() || r[0].IsNull() {
				sawNull = true
				continue
			}
			if hit := cmp(types.Compare(v, r[0])); hit != all {
				// ANY found a TRUE, or ALL found a FALSE: that decides it
				return BoolValue(hit), nil
			}
		}
		if sawNull {
			return types.Null, nil
		}
		return BoolValue(all), nil
	}, TBool, a)
	e.IsConst = e.IsConst && !pl.Correlated()
	e.NotNull = false // a NULL among the rows makes it NULL
	if !all && x.Op == opcode.EQ {
		e.Type = tInSubquery // = ANY is IN
	}
	return e, nil
}

// comparisons are the operators ANY/ALL take, over types.Compare's result.
var comparisons = map[opcode.Op]func(int) bool{
	opcode.EQ: func(c int) bool { return c == 0 },
	opcode.NE: func(c int) bool { return c != 0 },
	opcode.LT: func(c int) bool { return c < 0 },
	opcode.LE: func(c int) bool { return c <= 0 },
	opcode.GT: func(c int) bool { return c > 0 },
	opcode.GE: func(c int) bool { return c >= 0 },
}
