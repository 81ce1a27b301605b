package lua

import (
	"github.com/yuin/gopher-lua/ast"
)

// concatGlobal is the function every `..` of a procedure body calls.
// gopher-lua's OP_CONCAT joins strings in Go with no way to refuse, so
// `s = s .. s` forty times asked for a terabyte and killed the process;
// Compile rewrites each chain a .. b .. c into concatGlobal(a, b, c),
// which checks the statement's memory budget before it builds the string
// (strlib.go). A script that shadows the name only changes its own
// concatenations: no other way to join strings escapes the budget.
const concatGlobal = "__plrun_concat"

// rewriteConcat replaces the `..` chains of a chunk in place.
func rewriteConcat(stmts []ast.Stmt) {
	for _, s := range stmts {
		rewriteStmt(s)
	}
}

func rewriteStmt(s ast.Stmt) {
	switch x := s.(type) {
	case *ast.AssignStmt:
		rewriteExprs(x.Lhs)
		rewriteExprs(x.Rhs)
	case *ast.LocalAssignStmt:
		rewriteExprs(x.Exprs)
	case *ast.FuncCallStmt:
		x.Expr = rewriteExpr(x.Expr)
	case *ast.DoBlockStmt:
		rewriteConcat(x.Stmts)
	case *ast.WhileStmt:
		x.Condition = rewriteExpr(x.Condition)
		rewriteConcat(x.Stmts)
	case *ast.RepeatStmt:
		x.Condition = rewriteExpr(x.Condition)
		rewriteConcat(x.Stmts)
	case *ast.IfStmt:
		x.Condition = rewriteExpr(x.Condition)
		rewriteConcat(x.Then)
		rewriteConcat(x.Else)
	case *ast.NumberForStmt:
		x.Init, x.Limit = rewriteExpr(x.Init), rewriteExpr(x.Limit)
		if x.Step != nil {
			x.Step = rewriteExpr(x.Step)
		}
		rewriteConcat(x.Stmts)
	case *ast.GenericForStmt:
		rewriteExprs(x.Exprs)
		rewriteConcat(x.Stmts)
	case *ast.FuncDefStmt:
		if x.Name != nil {
			x.Name.Func = rewriteExpr(x.Name.Func)
			x.Name.Receiver = rewriteExpr(x.Name.Receiver)
		}
		rewriteConcat(x.Func.Stmts)
	case *ast.ReturnStmt:
		rewriteExprs(x.Exprs)
	}
}

func rewriteExprs(es []ast.Expr) {
	for i := range es {
		es[i] = rewriteExpr(es[i])
	}
}

func rewriteExpr(e ast.Expr) ast.Expr {
	switch x := e.(type) {
	case nil:
		return nil
	case *ast.StringConcatOpExpr:
		// Flatten the (right-associative) chain into one call, so a long
		// chain is one join, as OP_CONCAT does it, not one copy per `..`.
		var args []ast.Expr
		var walk func(ast.Expr)
		walk = func(p ast.Expr) {
			if c, ok := p.(*ast.StringConcatOpExpr); ok {
				walk(c.Lhs)
				walk(c.Rhs)
				return
			}
			p = rewriteExpr(p)
			// An operand yields one value, as in the original expression.
			switch q := p.(type) {
			case *ast.FuncCallExpr:
				q.AdjustRet = true
			case *ast.Comma3Expr:
				q.AdjustRet = true
			}
			args = append(args, p)
		}
		walk(x)
		fn := &ast.IdentExpr{Value: concatGlobal}
		fn.SetLine(x.Line())
		fn.SetLastLine(x.LastLine())
		call := &ast.FuncCallExpr{Func: fn, Args: args, AdjustRet: true}
		call.SetLine(x.Line())
		call.SetLastLine(x.LastLine())
		return call
	case *ast.AttrGetExpr:
		x.Object, x.Key = rewriteExpr(x.Object), rewriteExpr(x.Key)
	case *ast.TableExpr:
		for _, f := range x.Fields {
			f.Key, f.Value = rewriteExpr(f.Key), rewriteExpr(f.Value)
		}
	case *ast.FuncCallExpr:
		x.Func, x.Receiver = rewriteExpr(x.Func), rewriteExpr(x.Receiver)
		rewriteExprs(x.Args)
	case *ast.LogicalOpExpr:
		x.Lhs, x.Rhs = rewriteExpr(x.Lhs), rewriteExpr(x.Rhs)
	case *ast.RelationalOpExpr:
		x.Lhs, x.Rhs = rewriteExpr(x.Lhs), rewriteExpr(x.Rhs)
	case *ast.ArithmeticOpExpr:
		x.Lhs, x.Rhs = rewriteExpr(x.Lhs), rewriteExpr(x.Rhs)
	case *ast.UnaryMinusOpExpr:
		x.Expr = rewriteExpr(x.Expr)
	case *ast.UnaryNotOpExpr:
		x.Expr = rewriteExpr(x.Expr)
	case *ast.UnaryLenOpExpr:
		x.Expr = rewriteExpr(x.Expr)
	case *ast.FunctionExpr:
		rewriteConcat(x.Stmts)
	}
	return e
}
