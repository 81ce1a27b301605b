package ddl

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/exec"
)

// refuseVirtual is 1044 for DDL that would create, drop or change
// information_schema or a table in it, as MariaDB answers.
func refuseVirtual(s *exec.State, n ast.StmtNode) error {
	var dbs []string
	switch x := n.(type) {
	case *ast.CreateDatabaseStmt:
		dbs = append(dbs, x.Name.O)
	case *ast.DropDatabaseStmt:
		dbs = append(dbs, x.Name.O)
	case *ast.CreateTableStmt:
		dbs = append(dbs, x.Table.Schema.O)
	case *ast.DropTableStmt:
		for _, tn := range x.Tables {
			dbs = append(dbs, tn.Schema.O)
		}
	case *ast.TruncateTableStmt:
		dbs = append(dbs, x.Table.Schema.O)
	}
	for _, db := range dbs {
		if db == "" {
			db = s.DB
		}
		if s.IsVirtual(db) {
			return s.AccessDenied(db)
		}
	}
	return nil
}
