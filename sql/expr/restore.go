package expr

import "github.com/pingcap/tidb/pkg/parser/ast"

// RestoreString is an expression as text: a string literal's value, any
// other expression as it would be printed.
func RestoreString(e ast.ExprNode) string {
	if v, ok := e.(ast.ValueExpr); ok {
		if s, ok := v.GetValue().(string); ok {
			return s
		}
	}
	return ExprText(e)
}
