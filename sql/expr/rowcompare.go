package expr

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	"github.com/plrun/plrun/sqlerr"
)

// Row constructors in comparisons: (a, b) = (x, y), (a, b) <> (x, y) and
// (a, b) [NOT] IN ((x, y), ...), as SQLAlchemy's reflection sends them.
// They compile as the equalities they are: (a = x AND b = y), and OR of
// those for IN, which gives MySQL's three-valued answers exactly (false
// if some pair differs, else NULL if some pair is NULL, else true; IN is
// true if one row matches, else NULL if one may, else false).

// rowCompare compiles x if it compares row constructors; ok is false
// when it does not.
func (sc *Scope) rowCompare(x *ast.BinaryOperationExpr) (e *Expr, ok bool, err error) {
	l, lok := x.L.(*ast.RowExpr)
	r, rok := x.R.(*ast.RowExpr)
	if !lok && !rok {
		return nil, false, nil
	}
	if x.Op != opcode.EQ && x.Op != opcode.NE {
		return nil, true, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support row constructors with '%s'", x.Op.String())
	}
	if !lok || !rok {
		return nil, true, sc.illegalRow(x.L, x.R, map[opcode.Op]string{opcode.EQ: "=", opcode.NE: "<>"}[x.Op])
	}
	eq, err := rowEquality(l, r)
	if err != nil {
		return nil, true, err
	}
	var n ast.ExprNode = eq
	if x.Op == opcode.NE {
		n = &ast.UnaryOperationExpr{Op: opcode.Not, V: eq}
	}
	e, err = sc.Compile(n)
	return e, true, err
}

// rowIn compiles row [NOT] IN (row, ...).
func (sc *Scope) rowIn(row *ast.RowExpr, list []ast.ExprNode, not bool) (*Expr, error) {
	var any ast.ExprNode
	for _, item := range list {
		r, ok := item.(*ast.RowExpr)
		if !ok {
			return nil, sc.illegalRow(row, item, "in")
		}
		eq, err := rowEquality(row, r)
		if err != nil {
			return nil, err
		}
		if any == nil {
			any = eq
		} else {
			any = &ast.BinaryOperationExpr{Op: opcode.LogicOr, L: any, R: eq}
		}
	}
	if not {
		any = &ast.UnaryOperationExpr{Op: opcode.Not, V: any}
	}
	return sc.Compile(any)
}

// rowEquality is l = r pair by pair, AND-ed; rows of different sizes are
// 1241, as in MariaDB.
func rowEquality(l, r *ast.RowExpr) (ast.ExprNode, error) {
	if len(l.Values) != len(r.Values) {
		return nil, sqlerr.New(sqlerr.ErOperandColumns, "Operand should contain %d column(s)", len(l.Values))
	}
	var all ast.ExprNode
	for i := range l.Values {
		if _, nested := l.Values[i].(*ast.RowExpr); nested {
			return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support nested row constructors")
		}
		var eq ast.ExprNode = &ast.BinaryOperationExpr{Op: opcode.EQ, L: l.Values[i], R: r.Values[i]}
		if all == nil {
			all = eq
		} else {
			all = &ast.BinaryOperationExpr{Op: opcode.LogicAnd, L: all, R: eq}
		}
	}
	return all, nil
}

// illegalRow is MariaDB's 4078 for a row compared with a scalar, naming
// the scalar's type.
func (sc *Scope) illegalRow(l, r ast.ExprNode, op string) error {
	kind := func(e ast.ExprNode) string {
		if _, ok := e.(*ast.RowExpr); ok {
			return "row"
		}
		c, err := sc.Compile(e)
		if err != nil || c.Type.IsInteger() {
			return "int"
		}
		name, _, _ := strings.Cut(c.Type.SQL(), "(")
		return name
	}
	return sqlerr.New(sqlerr.ErIllegalParamTypes, "Illegal parameter data types %s and %s for operation '%s'", kind(l), kind(r), op)
}
