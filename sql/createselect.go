package sql

import (
	"context"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/ddl"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

// createSelect runs CREATE [TEMPORARY] TABLE ... SELECT. TEMPORARY runs in
// the session's transaction like an INSERT ... SELECT (its rows are undone
// with it). The permanent table comes after the implicit commit, in a
// transaction of its own that only reads: the rows reach the log in the
// table's own DDL record, so that transaction is rolled back whatever
// happens, and the reply waits for that record (and so for everything it
// read) to be durable.
func (s *Session) createSelect(ctx context.Context, p *parse.Stmt, args []types.Value, n *ast.CreateTableStmt, ack uint64) (*exec.Result, uint64, error) {
	txns := s.database.Txns
	if n.TemporaryKeyword == ast.TemporaryLocal {
		return s.runDML(ctx, p, args, func(x *txn.Txn) (*exec.Result, error) {
			return ddl.CreateSelect(ctx, &s.State, txns, x, n, args)
		})
	}
	x := s.beginTxn(nil)
	x.BeginStatement(s.lastCommitLSN, true)
	outer := s.stmtTxn
	s.stmtTxn = x // the stored functions the SELECT calls read in x
	r, err := ddl.CreateSelect(ctx, &s.State, txns, x, n, args)
	s.stmtTxn = outer
	x.EndStatement()
	x.Rollback()
	return r, ack, err
}
