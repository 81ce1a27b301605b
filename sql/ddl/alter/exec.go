package alter

import (
	"context"
	"errors"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/txn"
)

// Exec runs an ALTER TABLE, CREATE INDEX, DROP INDEX or RENAME TABLE.
// A rebuild runs again (against the new table) when another schema
// change replaced the table while it was being rebuilt, as the second of
// two ALTERs waits for the first's metadata lock in MySQL and then alters
// its result.
func Exec(ctx context.Context, s *exec.State, txns *txn.Manager, pc *procs.Catalog, n ast.StmtNode) (*exec.Result, error) {
	if x, ok := n.(*ast.RenameTableStmt); ok {
		return renameStmt(ctx, s, txns, pc, x)
	}
	for try := 0; ; try++ {
		mark := s.StmtWarnings
		notes := len(s.StmtNotes)
		var res *exec.Result
		var err error
		switch x := n.(type) {
		case *ast.AlterTableStmt:
			res, err = alterTable(ctx, s, txns, pc, x)
		case *ast.CreateIndexStmt:
			res, err = createIndex(ctx, s, txns, x)
		case *ast.DropIndexStmt:
			res, err = dropIndex(ctx, s, txns, x)
		default:
			return nil, notYet("this schema change")
		}
		if !errors.Is(err, txn.ErrTableChanged) || try == 10 {
			return res, err
		}
		s.StmtWarnings, s.StmtNotes = mark, s.StmtNotes[:notes] // the next try reports its own
	}
}
