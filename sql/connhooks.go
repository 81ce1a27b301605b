package sql

import (
	"context"
	"fmt"
	"runtime/debug"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/types"
)

// What a protocol server needs of a session beyond running statements:
// describing a prepared statement, resetting the session in place (same
// connection id), no default database, a hook for KILL, and surviving a
// panic without leaving row locks behind.

// Describe returns the result columns a prepared statement will have
// (COM_STMT_PREPARE must send them: libmysqlclient reads a result set only
// if the prepare announced columns), or nil for a statement that returns
// no rows or whose columns are known only when it runs.
func (s *Session) Describe(query string) ([]exec.Column, error) {
	p, err := s.database.plans.Get(query, s.SQLMode().ParserMode())
	if err != nil {
		return nil, MapError(err)
	}
	// PREPARE is checked as the statement will be at each EXECUTE: its
	// columns are not described to an account that may not run it
	if err := s.checkAccess(p); err != nil {
		return nil, err
	}
	if p.Kind != parse.KindAST {
		return nil, nil
	}
	switch p.Node.(type) {
	case *ast.ShowStmt, *ast.ExplainStmt:
		// Read-only and without parameters: their columns are those of a
		// run now.
		if p.Params > 0 {
			return nil, nil
		}
		r, err := s.Exec(context.Background(), query, nil)
		if err != nil {
			return nil, err
		}
		return r.Columns, nil
	}
	n, ok := p.Node.(ast.ResultSetNode)
	if !ok {
		return nil, nil
	}
	pi, err := s.PlanFor(p, func() (any, error) { return s.BuildQuery(n) })
	if err != nil {
		return nil, MapError(err)
	}
	return pi.(exec.QueryPlan).Columns(), nil
}

// ClearDB leaves the session without a default database (a handshake
// that names none): statements naming no database get 1046.
func (s *Session) ClearDB() { s.DB = "" }

// Reset returns the session to the state of a new one, keeping its id,
// client and default database: the open transaction is rolled back and
// session variables, user variables, LAST_INSERT_ID() and the last
// statement's warnings are cleared and its temporary tables dropped
// (COM_RESET_CONNECTION, COM_CHANGE_USER).
func (s *Session) Reset() {
	s.rollbackOpen()
	s.notes = nil
	s.vars = map[string]string{}
	s.UserVars = map[string]types.Value{}
	s.LastInsertID, s.RowCount, s.FoundRows = 0, 0, 0
	// SET TRANSACTION's one-shot characteristics and the parsed sql_mode
	// are session state too.
	s.oneShot, s.txnReadOnly = txnTraits{}, false
	s.ForgetMode()
	s.DropTempTables() // as MariaDB's reset: a new session has none
	s.tables.ReleaseTables()
	s.tables.ReleaseGlobalRead()
}

// OnKill registers fn, called on the killer's goroutine when KILL
// CONNECTION ends this session, so that a server can close an idle
// connection at once rather than at its next command.
func (s *Session) OnKill(fn func()) {
	s.mu.Lock()
	s.onKill = fn
	s.mu.Unlock()
}

func (s *Session) notifyKilled() {
	s.mu.Lock()
	fn := s.onKill
	s.mu.Unlock()
	if fn != nil {
		fn()
	}
}

// PanicError is a panic that went through a statement: the statement's
// transactions were rolled back and its worker released before it went on.
type PanicError struct {
	Value any
	Stack []byte // where it panicked
}

func (p *PanicError) Error() string { return fmt.Sprintf("panic: %v", p.Value) }

// execHoldingWorker runs a statement (run) holding an engine worker, which
// the caller acquired and this releases. If the statement
// panics, the worker is released and every transaction the session has
// open is rolled back (so no row lock outlives the panic) before the
// panic goes on, as a *PanicError with the original stack, to the caller
// (the server closes that one connection).
func (s *Session) execHoldingWorker(run func() (*exec.Result, uint64, error)) (*exec.Result, uint64, error) {
	defer func() {
		r := recover()
		if r == nil {
			s.stmtTxns = s.stmtTxns[:0]
			return
		}
		pe, ok := r.(*PanicError)
		if !ok {
			pe = &PanicError{Value: r, Stack: debug.Stack()}
		}
		s.database.Engine.ReleaseWorker()
		s.abandonTxns()
		panic(pe)
	}()
	res, ack, err := run()
	s.database.Engine.ReleaseWorker()
	return res, ack, err
}

// abandonTxns rolls back the session's open transaction and those of the
// running statement; Rollback of a finished transaction does nothing.
func (s *Session) abandonTxns() {
	for _, x := range s.stmtTxns {
		x.Rollback()
	}
	s.stmtTxns = s.stmtTxns[:0]
	s.rollbackOpen()
}
