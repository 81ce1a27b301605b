package plan

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sqlerr"
)

// joinSpec is one join of a FROM clause's tree, in the order the tree
// builds them (its operands' joins first): the tables of its two sides,
// and for an outer join which side is NULL-extended.
type joinSpec struct {
	node        *ast.Join
	left, right tableSet // the operands' tables
	outer       bool     // LEFT or RIGHT
	null, keep  tableSet // an outer join's NULL-extended side and the side it keeps
	rightTable  int      // the right operand's table when it is one table, else -1
}

// flattenJoin lists a FROM clause's tables in the order written and its
// joins in the order they apply. An outer join's NULL-extended side may
// be several tables (a RIGHT JOIN after other joins, a LEFT JOIN of a
// parenthesized join) but may not hold another outer join.
func flattenJoin(j *ast.Join) ([]*ast.TableSource, []joinSpec, error) {
	var sources []*ast.TableSource
	var specs []joinSpec
	var nulled tableSet // tables some outer join NULL-extends
	var walk func(n ast.ResultSetNode) (tableSet, error)
	walk = func(n ast.ResultSetNode) (tableSet, error) {
		switch x := n.(type) {
		case *ast.Join:
			if x.Right == nil {
				return walk(x.Left)
			}
			l, err := walk(x.Left)
			if err != nil {
				return 0, err
			}
			before := len(sources)
			r, err := walk(x.Right)
			if err != nil {
				return 0, err
			}
			sp := joinSpec{node: x, left: l, right: r, rightTable: -1}
			if len(sources) == before+1 {
				sp.rightTable = before
			}
			if (x.NaturalJoin || len(x.Using) > 0) && sp.rightTable < 0 {
				return 0, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support USING or NATURAL with a parenthesized join")
			}
			switch x.Tp {
			case ast.LeftJoin:
				sp.outer, sp.null, sp.keep = true, r, l
			case ast.RightJoin:
				sp.outer, sp.null, sp.keep = true, l, r
			}
			if sp.outer {
				if sp.null&nulled != 0 {
					return 0, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support an outer join inside another outer join's NULL-extended side")
				}
				nulled |= sp.null
			}
			specs = append(specs, sp)
			return l | r, nil
		case *ast.TableSource:
			if nested, ok := x.Source.(*ast.Join); ok {
				return walk(nested)
			}
			sources = append(sources, x)
			if len(sources) > maxJoinTables {
				return 0, sqlerr.New(sqlerr.ErTooManyTables, "Too many tables; MariaDB can only use %d tables in a join", maxJoinTables)
			}
			return one(len(sources) - 1), nil
		}
		return 0, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support this FROM clause")
	}
	if _, err := walk(j); err != nil {
		return nil, nil, err
	}
	return sources, specs, nil
}
