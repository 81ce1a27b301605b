package routines

import (
	"regexp"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/test_driver"
	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sqlerr"
)

// A SQL stored function's body, as CREATE FUNCTION checks it and its
// first call compiles it, and the statements a function or trigger body
// may not run.

// IsCompoundBody reports whether a SQL function body is BEGIN ... END
// (or a labelled block) rather than RETURN expr.
func IsCompoundBody(body string) bool { return reCompoundBody.MatchString(body) }

var reCompoundBody = regexp.MustCompile(`(?is)^\s*(\w+\s*:\s*)?begin\b`)

// ParseSQLFunctionBody parses RETURN expr, with the parameters turned into
// ? markers that read the call's converted arguments. CREATE FUNCTION
// runs it to check the body: a name that is no parameter is error 1327,
// while the functions it calls are resolved only when it is called, as in
// MariaDB. A BEGIN ... END body is sql/psm's (compileFunction).
func ParseSQLFunctionBody(def *procs.Definition, mode sysvar.SQLMode) (ast.ExprNode, error) {
	body := strings.TrimSpace(def.Body)
	if len(body) < 6 || !strings.EqualFold(body[:6], "RETURN") {
		return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support SQL function bodies other than RETURN expr")
	}
	p, err := parse.Parse("SELECT "+body[6:], mode.ParserMode())
	if err != nil {
		return nil, err
	}
	sel, ok := p.Node.(*ast.SelectStmt)
	if !ok || sel.From != nil || sel.Where != nil || len(sel.Fields.Fields) != 1 || sel.Fields.Fields[0].Expr == nil {
		return nil, parse.SyntaxError(body, body[6:])
	}
	refs := &paramRefs{params: def.Params}
	n, _ := sel.Fields.Fields[0].Expr.Accept(refs)
	e, ok := n.(ast.ExprNode)
	if !ok {
		return nil, parse.SyntaxError(body, body[6:])
	}
	if refs.undeclared != "" {
		return nil, sqlerr.New(sqlerr.ErSPUndeclaredVar, "Undeclared variable: %s", refs.undeclared)
	}
	return e, nil
}

// paramRefs turns the names of a function's parameters in its RETURN
// expression into ? markers numbered by parameter position, and notes the
// first other bare name (columns inside a subquery are the subquery's).
type paramRefs struct {
	params     []procs.Param
	depth      int // inside how many subqueries
	undeclared string
}

func (v *paramRefs) Enter(n ast.Node) (ast.Node, bool) {
	if _, ok := n.(*ast.SubqueryExpr); ok {
		v.depth++
	}
	return n, false
}

func (v *paramRefs) Leave(n ast.Node) (ast.Node, bool) {
	if _, ok := n.(*ast.SubqueryExpr); ok {
		v.depth--
	}
	c, ok := n.(*ast.ColumnNameExpr)
	if !ok || c.Name.Table.O != "" {
		return n, true
	}
	for i, prm := range v.params {
		if strings.EqualFold(prm.Name, c.Name.Name.O) {
			return &test_driver.ParamMarkerExpr{Order: i}, true
		}
	}
	if v.depth == 0 && v.undeclared == "" {
		v.undeclared = c.Name.Name.O
	}
	return n, true
}

// RefuseInFunction is error 1422 for a statement a stored function's body
// may not run: one that ends or starts a transaction, explicitly or
// implicitly (DDL), which would commit the calling statement's work
// halfway, as MySQL refuses it.
func RefuseInFunction(p *parse.Stmt) error {
	switch p.Kind {
	case parse.KindAST:
	case parse.KindShowProcStatus, parse.KindShowCreateProc, parse.KindShowFuncStatus, parse.KindShowCreateFunc,
		parse.KindShowTriggers, parse.KindShowCreateTrigger:
		return nil
	default:
		return sqlerr.New(sqlerr.ErCommitNotAllowedInSF, "Explicit or implicit commit is not allowed in stored function or trigger.")
	}
	switch n := p.Node.(type) {
	case *ast.BeginStmt, *ast.CommitStmt, ast.DDLNode:
	case *ast.RollbackStmt:
		if n.SavepointName != "" {
			return nil
		}
	default:
		return nil
	}
	return sqlerr.New(sqlerr.ErCommitNotAllowedInSF, "Explicit or implicit commit is not allowed in stored function or trigger.")
}
