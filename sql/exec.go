package sql

import (
	"context"
	"errors"
	"fmt"
	"github.com/plrun/plrun/sql/acl"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/lockmgr"
	"github.com/plrun/plrun/sql/dataio"
	"github.com/plrun/plrun/sql/ddl"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sql/routines"
	"github.com/plrun/plrun/sql/show"
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

// execParsed runs a parsed statement and returns the LSN its reply must
// wait for.
func (s *Session) execParsed(ctx context.Context, p *parse.Stmt, args []types.Value) (*exec.Result, uint64, error) {
	prevUse, entered, err := s.enterTables(ctx, p)
	if err != nil {
		return nil, 0, err
	}
	if entered {
		defer s.tables.Leave(prevUse)
	}
	switch p.Kind {
	case parse.KindLockTables:
		if s.callDepth > 0 {
			return nil, 0, errInRoutine("LOCK")
		}
		return s.tables.LockTables(ctx, p.Locks)
	case parse.KindCreateProc:
		return s.routineStmt(ctx, p, false, true, s.routines().CreateProc)
	case parse.KindDropProc:
		return s.routineStmt(ctx, p, false, false, s.routines().DropProc)
	case parse.KindCreateFunc:
		return s.routineStmt(ctx, p, true, true, s.routines().CreateFunc)
	case parse.KindDropFunc:
		return s.routineStmt(ctx, p, true, false, s.routines().DropFunc)
	case parse.KindCreateTrigger:
		return s.routines().CreateTrigger(ctx, p)
	case parse.KindDropTrigger:
		return s.routines().DropTrigger(ctx, p)
	case parse.KindShowTriggers:
		r, err := s.routines().ShowTriggers(p.Name, p.Like)
		return s.visibleRows(p, r), 0, err
	case parse.KindShowCreateTrigger:
		r, err := s.routines().ShowCreateTrigger(p.Name)
		return r, 0, err
	case parse.KindShowFuncStatus:
		return s.visibleRows(p, show.FuncStatus(s.database.Txns.Catalog(), s.database.Procs, p.Like)), 0, nil
	case parse.KindShowCreateFunc:
		db, name := routines.SplitName(p.Name, s.DB)
		r, err := show.CreateFunc(s.database.Procs, db, name, routines.ReturnsText)
		return r, 0, err
	case parse.KindAlterSystem, parse.KindSetPersist:
		// OceanBase's ALTER SYSTEM SET and MySQL 8's SET PERSIST both
		// set the global value and keep it across restarts (engine/persist.go);
		// SET PERSIST_ONLY only keeps it, for the next start.
		res := &exec.Result{}
		for _, a := range p.Assigns {
			warn, err := s.database.Engine.PersistSetting(a[0], sysvar.Literal(a[1]), p.PersistOnly)
			if err != nil {
				return nil, 0, err
			}
			if !p.PersistOnly {
				s.setDynamically(a[0])
			}
			if warn != nil {
				res.Notes = append(res.Notes, *warn)
				res.Warnings++
			}
		}
		return res, 0, nil
	case parse.KindResetPersist:
		return &exec.Result{}, 0, s.database.Engine.ResetPersisted(p.Name, p.IfExists)
	case parse.KindCheckpoint:
		lsn, err := s.database.Engine.Checkpoint(ctx)
		if err != nil {
			return nil, 0, err
		}
		return &exec.Result{Info: fmt.Sprintf("Checkpoint at LSN %d", lsn)}, 0, nil
	case parse.KindShowEngine:
		r, err := s.showEngine(p.Name, p.Like)
		return r, 0, err
	case parse.KindShowProcStatus:
		return s.visibleRows(p, show.ProcStatus(s.database.Txns.Catalog(), s.database.Procs, p.Like)), 0, nil
	case parse.KindLoadProc:
		n, err := s.routines().LoadProcedures(ctx, p.Name)
		if err != nil {
			return nil, 0, err
		}
		return &exec.Result{AffectedRows: uint64(n), Info: fmt.Sprintf("Procedures loaded: %d", n)}, 0, nil
	case parse.KindShowCreateProc:
		db, name := routines.SplitName(p.Name, s.DB)
		r, err := show.CreateProc(s.database.Procs, db, name, s.database.Globals.Get("sql_mode"))
		return r, 0, err
	case parse.KindDoBlock:
		return s.execDoBlock(ctx, p.Name, p.Body)
	}
	if err := withOnDML(p); err != nil {
		return nil, 0, err
	}
	if acl.IsAccountStmt(p.Node) {
		return s.execAccount(ctx, p)
	}
	switch n := p.Node.(type) {
	case *ast.SelectStmt:
		if p.Into != nil {
			return dataio.SelectInto(ctx, dataHost{s}, p, n, args)
		}
		n = s.withSelectLimit(n)
		defer s.clearSelectLimit()
		return s.runDML(ctx, p, args, func(x *txn.Txn) (*exec.Result, error) { return s.ExecSelect(ctx, x, p, n, args) })
	case *ast.SetOprStmt:
		n = s.withSetOprLimit(n)
		defer s.clearSelectLimit()
		return s.runDML(ctx, p, args, func(x *txn.Txn) (*exec.Result, error) { return s.ExecQuery(ctx, x, p, n, args) })
	case *ast.InsertStmt:
		if err := s.checkWritableDML(n); err != nil {
			return nil, 0, err
		}
		return s.runDML(ctx, p, args, func(x *txn.Txn) (*exec.Result, error) { return s.ExecInsert(ctx, x, p, n, args) })
	case *ast.UpdateStmt:
		if err := s.checkWritableDML(n); err != nil {
			return nil, 0, err
		}
		if row, ok := s.hotRowOf(p, n, args); ok {
			s.oneShot = txnTraits{} // the group's transaction is this statement's
			return s.execHotUpdate(ctx, row, p, n, args)
		}
		return s.runDML(ctx, p, args, func(x *txn.Txn) (*exec.Result, error) { return s.ExecUpdate(ctx, x, p, n, args) })
	case *ast.DeleteStmt:
		if err := s.checkWritableDML(n); err != nil {
			return nil, 0, err
		}
		return s.runDML(ctx, p, args, func(x *txn.Txn) (*exec.Result, error) { return s.ExecDelete(ctx, x, p, n, args) })
	case *ast.LoadDataStmt:
		if err := s.checkWritable(); err != nil {
			return nil, 0, err
		}
		if s.callDepth > 0 {
			return nil, 0, errInRoutine("LOAD DATA")
		}
		return dataio.Load(ctx, dataHost{s}, p, n)
	case *ast.BeginStmt:
		return s.execBegin(ctx, p, n)
	case *ast.CommitStmt:
		ack, err := s.finishOpen(ctx)
		return &exec.Result{}, ack, err
	case *ast.RollbackStmt:
		if n.SavepointName != "" {
			if s.txn == nil || !s.txn.RollbackToSavepoint(n.SavepointName) {
				return nil, 0, sqlerr.New(sqlerr.ErSavepointNotExist, "SAVEPOINT %s does not exist", n.SavepointName)
			}
			return &exec.Result{}, 0, nil
		}
		s.rollbackOpen()
		return &exec.Result{}, 0, nil
	case *ast.SavepointStmt:
		if s.txn == nil {
			if s.autocommit() {
				return &exec.Result{}, 0, nil
			}
			s.txn = s.beginTxn(nil)
		}
		s.txn.Savepoint(n.Name)
		return &exec.Result{}, 0, nil
	case *ast.ReleaseSavepointStmt:
		if s.txn == nil || !s.txn.ReleaseSavepoint(n.Name) {
			return nil, 0, sqlerr.New(sqlerr.ErSavepointNotExist, "SAVEPOINT %s does not exist", n.Name)
		}
		return &exec.Result{}, 0, nil
	case *ast.SetStmt:
		r, err := s.execSet(ctx, p, n, args)
		return r, 0, err
	case *ast.UseStmt:
		return &exec.Result{}, 0, s.UseDB(n.DBName)
	case *ast.ShowStmt:
		return s.runRead(ctx, func(x *txn.Txn) (*exec.Result, error) {
			r, err := show.Exec(ctx, &s.State, showOf{s}, x, n)
			return s.visibleRows(p, r), err
		})
	case *ast.ExplainStmt:
		return s.runRead(ctx, func(x *txn.Txn) (*exec.Result, error) { return show.Explain(&s.State, n) })
	case *ast.CreateTableStmt, *ast.DropTableStmt, *ast.CreateDatabaseStmt, *ast.DropDatabaseStmt, *ast.TruncateTableStmt,
		*ast.AlterTableStmt, *ast.CreateIndexStmt, *ast.DropIndexStmt, *ast.RenameTableStmt:
		// DDL commits the open transaction first, as MySQL does (not
		// CREATE/DROP TEMPORARY TABLE); then a READ ONLY session refuses
		// it (1792), as MariaDB does.
		var ack uint64
		if !ddl.KeepsTransaction(n) {
			var err error
			if ack, err = s.finishOpen(ctx); err != nil {
				return nil, ack, err
			}
		}
		if err := s.checkWritable(); err != nil {
			return nil, ack, err
		}
		if ct, ok := n.(*ast.CreateTableStmt); ok && ct.Select != nil {
			return s.createSelect(ctx, p, args, ct, ack)
		}
		r, err := ddl.Exec(ctx, &s.State, s.database.Txns, s.database.Procs, n)
		if drop, ok := n.(*ast.DropTableStmt); ok && err == nil {
			s.forgetDroppedLocks(drop)
		}
		if alter, ok := n.(*ast.AlterTableStmt); ok && err == nil {
			s.renameLocks(alter)
		}
		return r, ack, err
	case *ast.CreateViewStmt:
		ack, err := s.finishOpen(ctx)
		if err != nil {
			return nil, ack, err
		}
		if err := s.checkWritable(); err != nil {
			return nil, ack, err
		}
		r, err := ddl.CreateView(ctx, &s.State, s.database.Txns, n, p.ViewCheck, p.ViewAlter)
		return r, ack, err
	case *ast.CallStmt:
		return s.execCall(ctx, n, args)
	case *ast.KillStmt:
		if err := s.checkKill(n.ConnectionID); err != nil {
			return nil, 0, err
		}
		return &exec.Result{}, 0, s.KillThread(n.ConnectionID, n.Query)
	case *ast.DoStmt:
		return s.runRead(ctx, func(x *txn.Txn) (*exec.Result, error) {
			sc := &expr.Scope{DB: s.DB, Funcs: s.Functions()}
			for _, e := range n.Exprs {
				ce, err := sc.Compile(e)
				if err != nil {
					return nil, err
				}
				if _, err := ce.Fn(&expr.Ctx{Env: &s.Env, Args: args}); err != nil {
					return nil, err
				}
			}
			return &exec.Result{}, nil
		})
	case *ast.UnlockTablesStmt:
		if s.callDepth > 0 {
			return nil, 0, errInRoutine("UNLOCK")
		}
		return s.tables.UnlockTables(ctx)
	case *ast.FlushStmt:
		if n.Tp == ast.FlushPrivileges && s.database.Accounts != nil {
			s.database.Accounts.FlushPrivileges()
		}
		if n.Tp == ast.FlushLogs {
			if err := s.flushLogs(n.LogType); err != nil {
				return nil, 0, err
			}
		}
		return s.tables.Flush(ctx, n)
	case *ast.AnalyzeTableStmt:
		r, err := s.execAnalyze(n)
		return r, 0, err
	}
	return nil, 0, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support '%s'", firstWords(p.Text))
}

func firstWords(q string) string {
	f := strings.Fields(parse.StripLeading(q))
	if len(f) > 3 {
		f = f[:3]
	}
	return strings.Join(f, " ")
}

// runRead runs a statement that reads but never writes.
func (s *Session) runRead(ctx context.Context, fn func(x *txn.Txn) (*exec.Result, error)) (*exec.Result, uint64, error) {
	x := s.txn
	if x == nil {
		// SHOW, EXPLAIN and DO read no table data a SET TRANSACTION is
		// meant for: they leave its one-shot characteristics to the next.
		next := s.oneShot
		x = s.beginTxn(nil)
		s.oneShot = next
		x.BeginStatement(s.lastCommitLSN, true)
		r, err := fn(x)
		ack, cerr := x.Commit(ctx, txn.CommitOptions{})
		if err == nil {
			err = cerr
		}
		return r, ack, err
	}
	x.BeginStatement(s.lastCommitLSN, true)
	r, err := fn(x)
	x.EndStatement()
	return r, x.ReadLSN(), err
}

// maxTableChangedRetries bounds how often one statement is run again
// because schema changes keep replacing its table (back-to-back ALTERs of
// a small table can each win the race to its new write gate).
const maxTableChangedRetries = 1000

// retryable reports an error the statement is run again for: its table
// was replaced before it wrote it, or it read a rebuilt table at a
// snapshot of its own taken before the rebuild (a REPEATABLE READ read
// view stays: 1412 for the client, as InnoDB gives).
func retryable(x *txn.Txn, err error) bool {
	return errors.Is(err, txn.ErrTableChanged) || (errors.Is(err, txn.ErrSnapshotTooOld) && !x.HasReadView())
}

// runDML runs a statement in the current transaction with statement-level
// rollback, committing it on its own under autocommit (or when the
// COMMIT_ON_SUCCESS hint asks).
func (s *Session) runDML(ctx context.Context, p *parse.Stmt, args []types.Value, fn func(x *txn.Txn) (*exec.Result, error)) (*exec.Result, uint64, error) {
	next := s.oneShot
	x, auto := s.currentTxn()
	if auto && tablelessSelect(p.Node) {
		// As in MariaDB, a SELECT of no table (SELECT @@tx_isolation)
		// leaves SET TRANSACTION's characteristics to the next one.
		s.oneShot = next
	}
	mark := x.Mark()
	x.BeginStatement(s.lastCommitLSN, isConsistentRead(p.Node))
	outerStmtTxn := s.stmtTxn
	s.stmtTxn = x // the statements of stored functions it calls run in x
	warnings, notes := s.StmtWarnings, len(s.StmtNotes)
	r, err := fn(x)
	// A schema change replaced a table the statement was about to write
	// (it waited at the table's write gate, and wrote nothing there): the
	// statement's writes are undone and it runs again, re-planned against
	// the new table, as a statement waiting for MySQL's metadata lock
	// would run after the ALTER.
	if err == nil {
		err = x.StaleRead()
	}
	for retry := 0; retry < maxTableChangedRetries && ctx.Err() == nil && retryable(x, err); retry++ {
		x.RollbackTo(mark)
		s.StmtWarnings, s.StmtNotes = warnings, s.StmtNotes[:notes] // the next run reports its own
		x.BeginStatement(s.lastCommitLSN, isConsistentRead(p.Node))
		if r, err = fn(x); err == nil {
			err = x.StaleRead()
		}
	}
	s.stmtTxn = outerStmtTxn
	x.EndStatement()
	if err == nil && p.Hints.TargetRows >= 0 && int64(r.AffectedRows) != p.Hints.TargetRows {
		err = fmt.Errorf("%w: TARGET_AFFECT_ROW(%d), %d rows affected", errTargetAffectRow, p.Hints.TargetRows, r.AffectedRows)
	}
	if err != nil {
		// before the rollback hands the locks on: the other transactions
		// of a deadlock are still at the statements that closed it
		s.reportLockFailure(p.Text, err)
		if auto {
			x.Rollback()
			return nil, 0, err
		}
		if errors.Is(err, lockmgr.ErrDeadlock) || p.Hints.RollbackOnFail {
			// MySQL rolls back the whole transaction of a deadlock victim.
			s.rollbackOpen()
			return nil, 0, err
		}
		x.RollbackTo(mark)
		return nil, x.ReadLSN(), err
	}
	if auto {
		ack, err := s.commitTxn(ctx, x)
		return r, ack, err
	}
	if p.Hints.CommitOnSuccess {
		ack, err := s.finishOpen(ctx)
		return r, ack, err
	}
	return r, x.ReadLSN(), nil
}
