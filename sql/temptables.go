package sql

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/plan"
)

// checkWritableDML is checkWritable for INSERT, UPDATE and DELETE: a READ
// ONLY transaction may still change the session's temporary tables, as in
// MariaDB (CREATE TEMPORARY TABLE itself is refused there too).
func (s *Session) checkWritableDML(n ast.StmtNode) error {
	err := s.checkWritable()
	if err != nil && s.writesTemporary(n) {
		return nil
	}
	return err
}

// writesTemporary reports whether n writes one of the session's
// temporary tables.
func (s *Session) writesTemporary(n ast.StmtNode) bool {
	var refs *ast.TableRefsClause
	switch x := n.(type) {
	case *ast.InsertStmt:
		refs = x.Table
	case *ast.UpdateStmt:
		refs = x.TableRefs
	case *ast.DeleteStmt:
		refs = x.TableRefs
	}
	if refs == nil {
		return false
	}
	tn, _, err := plan.SingleTable(refs)
	if err != nil || tn == nil {
		return false
	}
	t, err := s.ResolveTable(tn)
	return err == nil && t.Def.Temporary
}
