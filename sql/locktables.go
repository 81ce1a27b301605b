package sql

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/lockmgr"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sql/tablelock"
	"github.com/plrun/plrun/sqlerr"
)

// The session as its table locks (sql/tablelock) see it.
type lockHost struct{ s *Session }

func (h lockHost) CurrentDB() string                              { return h.s.DB }
func (h lockHost) IsTempTable(db, name string) bool               { return h.s.TempTable(db, name) != nil }
func (h lockHost) InTransaction() bool                            { return h.s.txn != nil }
func (h lockHost) SetState(state string)                          { h.s.setState(state) }
func (h lockHost) CommitOpen(ctx context.Context) (uint64, error) { return h.s.finishOpen(ctx) }

// LockWaitTimeout is lock_wait_timeout (seconds).
func (h lockHost) LockWaitTimeout() time.Duration {
	secs, _ := strconv.ParseInt(h.s.getVar(sysvar.Defs["lock_wait_timeout"], false), 10, 64)
	return time.Duration(secs) * time.Second
}

// enterTables lets a statement in past the table locks (see
// tablelock.Holder.Enter); a COMMIT writes when its transaction has.
func (s *Session) enterTables(ctx context.Context, p *parse.Stmt) (*tablelock.Use, bool, error) {
	write := p.IsWrite()
	if _, ok := p.Node.(*ast.CommitStmt); ok {
		write = s.txn != nil && s.txn.HasWrites()
	}
	prev, entered, err := s.tables.Enter(ctx, p, write)
	if errors.Is(err, lockmgr.ErrDeadlock) {
		s.rollbackOpen() // the victim's transaction, as MariaDB's
	}
	return prev, entered, err
}

// forgetDroppedLocks drops the LOCK TABLES locks of the tables DROP TABLE
// removed.
func (s *Session) forgetDroppedLocks(n *ast.DropTableStmt) {
	if !s.tables.Locked() {
		return
	}
	gone := make([][2]string, 0, len(n.Tables))
	for _, t := range n.Tables {
		db := t.Schema.O
		if db == "" {
			db = s.DB
		}
		gone = append(gone, [2]string{db, t.Name.O})
	}
	s.tables.ForgetDropped(gone)
}

// renameLocks drops the LOCK TABLES locks of a table ALTER TABLE ...
// RENAME TO renamed: as in MariaDB neither name is locked afterwards (both
// are 1100 until the next LOCK TABLES).
func (s *Session) renameLocks(n *ast.AlterTableStmt) {
	if !s.tables.Locked() {
		return
	}
	for _, spec := range n.Specs {
		if spec.Tp != ast.AlterTableRenameTable || spec.NewTable == nil {
			continue
		}
		db := n.Table.Schema.O
		if db == "" {
			db = s.DB
		}
		s.tables.ForgetDropped([][2]string{{db, n.Table.Name.O}})
	}
}

// errInRoutine refuses a statement MySQL does not allow in stored
// programs (1314); a SQL procedure is refused when created, a Lua or
// JavaScript one when it runs the statement.
func errInRoutine(what string) error {
	return sqlerr.New(sqlerr.ErSPBadStatement, "%s is not allowed in stored procedures", what)
}
