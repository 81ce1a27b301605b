package sql

import (
	"regexp"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/parse"
)

// reDMLAfterWith finds the UPDATE or DELETE a WITH clause precedes.
var reDMLAfterWith = regexp.MustCompile(`(?is)\)\s*((?:UPDATE|DELETE)\b.*)$`)

// withOnDML refuses WITH ... UPDATE and WITH ... DELETE (MySQL 8.0's,
// which the TiDB parser reads): MariaDB 10.11 has no such syntax, and
// plrun must not run the statement without its CTEs. The error is
// MariaDB's 1064 near the UPDATE or DELETE.
func withOnDML(p *parse.Stmt) error {
	var with *ast.WithClause
	switch n := p.Node.(type) {
	case *ast.UpdateStmt:
		with = n.With
	case *ast.DeleteStmt:
		with = n.With
	}
	if with == nil {
		return nil
	}
	near := ""
	if m := reDMLAfterWith.FindStringSubmatch(p.Text); m != nil {
		near = m[1]
	}
	return parse.SyntaxError(p.Text, near)
}
