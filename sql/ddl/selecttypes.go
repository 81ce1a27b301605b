package ddl

import (
	"strconv"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
)

// derive refines the column CREATE TABLE ... SELECT makes of select-list
// expression e where MariaDB's column differs from the result type alone:
// COUNT is NOT NULL; an integer literal is NOT NULL, INT(n) up to nine
// digits and BIGINT(n) beyond, n counting a minus sign.
func derive(col *storage.Column, e ast.ExprNode) {
	switch x := e.(type) {
	case *ast.AggregateFuncExpr:
		if x.F == ast.AggFuncCount {
			col.NotNull = true
		}
	case ast.ValueExpr:
		if t, ok := intLiteralType(x, false); ok {
			col.Type, col.NotNull = t, true
		}
	case *ast.UnaryOperationExpr:
		if v, ok := x.V.(ast.ValueExpr); ok && x.Op == opcode.Minus {
			if t, ok := intLiteralType(v, true); ok {
				col.Type, col.NotNull = t, true
			}
		}
	}
}

func intLiteralType(v ast.ValueExpr, negative bool) (types.ColType, bool) {
	var digits int
	unsigned := false
	switch n := v.GetValue().(type) {
	case int64:
		digits = len(strconv.FormatInt(n, 10))
		if n < 0 {
			digits--
		}
	case uint64:
		digits = len(strconv.FormatUint(n, 10))
		unsigned = n > 1<<63-1
	default:
		return types.ColType{}, false
	}
	if negative {
		digits++
		unsigned = false
	}
	if unsigned {
		return types.ColType{Base: types.TBigInt, Unsigned: true, Length: 20}, true
	}
	if digits <= 9 {
		return types.ColType{Base: types.TInt, Length: digits}, true
	}
	return types.ColType{Base: types.TBigInt, Length: digits}, true
}
