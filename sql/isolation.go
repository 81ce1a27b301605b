package sql

import (
	"context"
	"regexp"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/txn"
)

// txnTraits are a transaction's characteristics: its isolation level and
// access mode. SET TRANSACTION (no GLOBAL/SESSION) sets them for the next
// transaction only, as MySQL's one-shot form does; otherwise a transaction
// takes the session's transaction_isolation and transaction_read_only.
type txnTraits struct {
	isolation string // "" = the session's
	readOnly  *bool  // nil = the session's
}

// reSetTransaction matches SET TRANSACTION without GLOBAL or SESSION: the
// TiDB parser marks only its isolation part as one-shot, not READ ONLY.
var reSetTransaction = regexp.MustCompile(`(?is)^set\s+transaction\b`)

// nextTraits are the characteristics the session's next transaction gets.
func (s *Session) nextTraits() (isolation string, readOnly bool) {
	isolation = s.getVar(sysvar.Defs["transaction_isolation"], false)
	readOnly = s.varOn("transaction_read_only")
	if s.oneShot.isolation != "" {
		isolation = s.oneShot.isolation
	}
	if s.oneShot.readOnly != nil {
		readOnly = *s.oneShot.readOnly
	}
	return isolation, readOnly
}

// beginTxn starts a transaction with the next characteristics (consuming
// a SET TRANSACTION's one-shot ones); forceRO is START TRANSACTION READ
// ONLY / READ WRITE (nil: neither said).
func (s *Session) beginTxn(forceRO *bool) *txn.Txn {
	iso, ro := s.nextTraits()
	s.oneShot = txnTraits{}
	if forceRO != nil {
		ro = *forceRO
	}
	x := s.database.Txns.Begin()
	s.txnStateSink(x)
	x.SetIsolation(txnIsolation(iso))
	s.txnReadOnly = ro
	s.stmtTxns = append(s.stmtTxns, x) // rolled back if the statement panics (connhooks.go)
	s.publishTxn(x, iso, ro)
	return x
}

// txnIsolation maps a level plrun accepts to the txn package's; the
// others are refused when set (checkIsolation).
func txnIsolation(level string) txn.Isolation {
	if level == "READ-COMMITTED" {
		return txn.ReadCommitted
	}
	return txn.RepeatableRead
}

// checkWritable refuses a write in a READ ONLY transaction (error 1792):
// the open one, or the one the statement would start.
func (s *Session) checkWritable() error {
	ro := s.txnReadOnly
	if s.txn == nil {
		_, ro = s.nextTraits()
	}
	if ro {
		return sqlerr.New(sqlerr.ErReadOnlyTransaction, "Cannot execute statement in a READ ONLY transaction")
	}
	return nil
}

// setOneShot handles SET TRANSACTION's next-transaction-only assignments.
func (s *Session) setOneShot(name string, text string) error {
	if s.txn != nil {
		return sqlerr.New(sqlerr.ErCantChangeTxCharacteristics, "Transaction characteristics can't be changed while a transaction is in progress")
	}
	switch name {
	case "transaction_isolation":
		if err := sysvar.CheckIsolation("tx_isolation", text); err != nil {
			return err
		}
		s.oneShot.isolation = text
	case "transaction_read_only":
		ro := text == "ON"
		s.oneShot.readOnly = &ro
	}
	return nil
}

// isConsistentRead reports whether a statement is a consistent
// (non-locking) read: a SELECT without FOR UPDATE / LOCK IN SHARE MODE.
// Under REPEATABLE READ it reads the transaction's read view; every other
// statement reads the newest committed rows.
func isConsistentRead(n ast.StmtNode) bool {
	if _, ok := n.(*ast.SetOprStmt); ok {
		return true // UNION ... has no FOR UPDATE of its own
	}
	sel, ok := n.(*ast.SelectStmt)
	return ok && (sel.LockInfo == nil || sel.LockInfo.LockType == ast.SelectLockNone)
}

// execBegin is BEGIN / START TRANSACTION [READ ONLY | READ WRITE | WITH
// CONSISTENT SNAPSHOT, ...]: it commits the open transaction first, as
// MySQL does. WITH CONSISTENT SNAPSHOT takes the REPEATABLE READ read view
// now (under READ COMMITTED it has nothing to do, as in MariaDB).
func (s *Session) execBegin(ctx context.Context, p *parse.Stmt, n *ast.BeginStmt) (*exec.Result, uint64, error) {
	if n.Mode != "" || n.CausalConsistencyOnly || n.AsOf != nil {
		// TiDB's own forms; MariaDB has no such syntax.
		f := strings.Fields(parse.StripLeading(p.Text))
		return nil, 0, parse.SyntaxError(p.Text, strings.Join(f[1:], " "))
	}
	ack, err := s.finishOpen(ctx)
	if err != nil {
		return nil, ack, err
	}
	s.tables.ReleaseTables() // BEGIN ends LOCK TABLES (not FTWRL), as in MySQL
	var ro *bool
	switch {
	case p.Begin.ReadOnly:
		ro = &p.Begin.ReadOnly
	case p.Begin.ReadWrite:
		rw := false
		ro = &rw
	}
	s.txn = s.beginTxn(ro)
	s.explicit = true
	if p.Begin.Snapshot {
		s.txn.TakeReadView(s.lastCommitLSN)
	}
	return &exec.Result{}, ack, nil
}

// tablelessSelect reports whether n is a SELECT with no FROM.
func tablelessSelect(n ast.StmtNode) bool {
	sel, ok := n.(*ast.SelectStmt)
	return ok && sel.From == nil
}
