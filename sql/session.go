package sql

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/plrun/plrun/sql/access"
	"github.com/plrun/plrun/sql/callout"
	"github.com/plrun/plrun/sql/privilege"
	"github.com/plrun/plrun/sql/routines"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/plrun/plrun/lockmgr"
	"github.com/plrun/plrun/membudget"
	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/infoschema"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sql/querylog"
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sql/tablelock"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

// Session is one connection's state.
type Session struct {
	exec.State
	database   *Database
	id         uint64
	user, host string
	transport  transport // the connection's TLS, if any (transport.go)

	txn         *txn.Txn
	explicit    bool      // BEGIN / START TRANSACTION is open
	txnReadOnly bool      // the open transaction is READ ONLY
	oneShot     txnTraits // SET TRANSACTION's characteristics for the next transaction

	notes []exec.Note       // the last statement's warnings or error (SHOW WARNINGS)
	vars  map[string]string // session-scoped system variables

	// CALL state: depth of nested execution and the highest LSN the
	// procedure's commits and reads need before the CALL may reply.
	callDepth int
	// compilingFuncs and runningFuncs are the stored functions being
	// compiled and run (db.name, lower case), to refuse recursion (1424).
	compilingFuncs []string
	runningFuncs   []string
	functionHost   procs.Host                          // the session as a stored function's body sees it
	triggerProgs   map[*procs.Trigger]*compiledTrigger // triggers compiled for their tables (triggers.go)
	funcArgs       [][]any                             // script functions' arguments, one slice per nesting level
	bodyCtxs       []*expr.Ctx                         // SQL function bodies' contexts, one per nesting level
	// stmtTxn is the transaction of the running DML statement (the
	// session's, or its autocommit one), which stored functions' statements join.
	stmtTxn   *txn.Txn
	bodyDepth int
	callAck   uint64
	// activeProcs counts the running CALLs of each procedure (db.name,
	// lower case), for max_sp_recursion_depth (recursion.go).
	activeProcs map[string]int
	// output collects the outermost running CALL's result sets and notes;
	// failedNotes keeps the notes of one that failed for SHOW WARNINGS.
	output      *callout.Output
	failedNotes []exec.Note
	failedSets  []*exec.Result // see FailedCallSets
	// refuseSets: the caller cannot take result sets (RefuseCallSets);
	// long_query_time, parsed once per change (slowQuery)
	longQuery     time.Duration
	longQueryText string
	// lockWait times the statement's row-lock waits (the slow log's
	// Lock_time), when the slow log is on.
	lockWait lockmgr.WaitClock
	// unlogged: the running statement is a server's own (ExecUnlogged);
	// scriptLogged: the general log has the multi-statement text it is
	// part of (logGeneralScript).
	unlogged     bool
	scriptLogged bool
	// callAffected is the rows the last CALL's statements changed, for
	// its OK (procHost.affected).
	callAffected uint64
	// procName is the running procedure ("db.name"), for error 1312.
	refuseSets bool
	procName   string

	// stmtCommitLSN is the highest LSN the current statement committed;
	// a wait beyond it is a reader waiting for another's commit.
	// stmtReadLSN is the highest LSN its committed transactions read
	// from others (under ELR, commits not yet durable: waitAck).
	stmtCommitLSN uint64
	stmtReadLSN   uint64
	// lastCommitLSN is the session's newest commit: its statements'
	// snapshots always see it (read your own writes).
	lastCommitLSN uint64

	mu      sync.Mutex // guards cancel and the processlist fields
	cancel  context.CancelCauseFunc
	command string
	since   time.Time
	query   string
	live    []liveTxn // transactions begun and maybe not ended (PLRUN_TRX)
	killed  atomic.Bool
	closed  bool
	onKill  func() // see OnKill

	// stmtTxns are the transactions the running statement began (see
	// beginTxn): a panic rolls them back.
	stmtTxns []*txn.Txn

	// tables is the session's side of the table locks (sql/tablelock):
	// its LOCK TABLES and global read lock, and what its running statement
	// and open transaction use, for lockers to wait on.
	tables *tablelock.Holder
	// stateP is the running statement's PROCESSLIST State (procstate.go):
	// one atomic store per change, read by Info.
	stateP atomic.Pointer[string]
	// sending: the server is writing the last statement's rows to the
	// client (SendingResult), PROCESSLIST's "Sending data".
	sending atomic.Bool
	// grants are the account's privileges (SetAccount); nil is unchecked.
	grants privilege.Grants
	// reportedLock is the last deadlock or lock-wait timeout written to
	// the error log (lockreport.go), so a CALL failing with its
	// statement's error does not write it again.
	reportedLock error
	// asDefiner: grants are a DEFINER's (runAs), whom denials then name.
	asDefiner bool

	localFiles LocalFileOpener // LOAD DATA LOCAL (sql/dataio)
}

// NewSession opens a session on database "test".
func (db *Database) NewSession() *Session {
	s := &Session{database: db, id: db.nextSess.Add(1), user: "root", host: "localhost",
		vars: map[string]string{}, command: "Sleep", since: time.Now()}
	s.State = exec.NewState(expr.NewEnv(s, "test"), db.Txns, &db.schemaEpoch)
	s.State.Triggers = triggerHost{s}
	s.State.Virtual = &infoschema.Schema{Src: infoschemaOf{s}}
	db.Engine.Register(s)
	s.tables = db.locks.Register(lockHost{s})
	return s
}

// Autocommit reports the session's autocommit mode.
func (s *Session) Autocommit() bool { return s.autocommit() }

// InTransaction reports whether a transaction is open (BEGIN, or a
// statement under autocommit=0): what SERVER_STATUS_IN_TRANS tells a client.
func (s *Session) InTransaction() bool { return s.txn != nil }

// Killed reports whether KILL (not KILL QUERY) ended this session: a
// server closes the connection.
func (s *Session) Killed() bool { return s.killed.Load() }

// ID is the session's connection id (CONNECTION_ID(), KILL).
func (s *Session) ID() uint64 { return s.id }

// SetClient records the login user and client host for PROCESSLIST.
func (s *Session) SetClient(user, host string) {
	s.mu.Lock()
	s.user, s.host = user, host
	s.mu.Unlock()
}

// SetAccount makes the session run as an account: its statements are
// checked against g (see package privilege). The server sets it at login;
// a session without one (embedded, REPL) is not checked.
func (s *Session) SetAccount(g privilege.Grants) { s.grants = g }

// Account is the session's account, nil when it is not checked.
func (s *Session) Account() privilege.Grants { return s.grants }

// CurrentDB is the session's default database.
func (s *Session) CurrentDB() string { return s.DB }

// UseDB changes the default database.
func (s *Session) UseDB(name string) error {
	if s.grants != nil && !s.seesDB(name) {
		// USE, COM_INIT_DB and a login's database: any privilege in it
		// (checked before it is looked up, so a database the account may
		// not see is not told apart from a missing one)
		return s.denied(s.grants, access.Denial{Need: access.Need{Scope: access.AnyInDatabase, DB: name}, DB: name, Missing: privilege.All}, "use")
	}
	if s.IsVirtual(name) {
		s.DB = s.VirtualName(name)
		return nil
	}
	if !s.database.Txns.Catalog().HasDatabase(name) {
		return sqlerr.New(sqlerr.ErBadDB, "Unknown database '%s'", name)
	}
	s.DB = s.database.Txns.Catalog().DatabaseName(name)
	return nil
}

// Close rolls back any open transaction and forgets the session.
func (s *Session) Close() {
	if s.closed {
		return
	}
	s.closed = true
	if s.txn != nil {
		s.txn.Rollback()
		s.txn = nil
	}
	s.tables.Release() // a disconnect ends LOCK TABLES and FTWRL, as in MySQL
	s.DropTempTables() // a session's temporary tables end with it
	s.database.Engine.Unregister(s)
}

// Info is the session's PROCESSLIST row now; safe from any goroutine.
// An account statement's passwords show as <secret>, as MySQL's.
func (s *Session) Info() SessionInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	state, holder, rowLock := s.stateLocked()
	command, query := s.command, ""
	if command != "Sleep" {
		query = s.query
	} else if s.sending.Load() {
		// the statement is done; the server still writes its rows
		command, state, query = "Query", stateSending, s.query
	}
	if query != "" {
		query = querylog.RedactText(query, mysql.ModeNone)
	}
	return SessionInfo{ID: s.id, User: s.user, Host: s.host, DB: s.DB, Command: command,
		Time: int64(time.Since(s.since).Seconds()), State: state, Info: query, Trx: s.liveTrxLocked(),
		RowLockWait: rowLock, LockHolderTrx: holder}
}

// Interrupt stops the running statement, as KILL QUERY (queryOnly) or
// KILL does; KILL also ends the session: its next statement fails and
// the OnKill hook runs. Safe from any goroutine.
func (s *Session) Interrupt(queryOnly bool) {
	if !queryOnly {
		s.killed.Store(true)
	}
	s.cancelRunning(errKilled)
	if !queryOnly {
		s.notifyKilled()
	}
}

// Shutdown stops the running statement because the database closes.
func (s *Session) Shutdown() { s.cancelRunning(errKilled) }

func (s *Session) cancelRunning(cause error) {
	s.mu.Lock()
	if s.cancel != nil {
		s.cancel(cause)
	}
	s.mu.Unlock()
}

// SysVar is a system variable's value in the session (or global) scope
// (Host).
func (s *Session) SysVar(d *sysvar.Def, global bool) string { return s.getVar(d, global) }

// Client is the login user and client host (Host).
func (s *Session) Client() (user, host string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.user, s.host
}

// getVar reads a system variable in the session (or global) scope.
func (s *Session) getVar(d *sysvar.Def, global bool) string {
	if d.Name == "last_insert_id" {
		// the value LAST_INSERT_ID() reports, however it was set
		return strconv.FormatUint(s.LastInsertID, 10)
	}
	if !global && d.Session {
		if v, ok := s.vars[d.Key()]; ok {
			return v
		}
	}
	return s.database.Globals.Get(d.Key())
}

func (s *Session) varOn(name string) bool {
	return s.getVar(sysvar.Defs[name], false) == "ON"
}

// autocommit reports the session's autocommit mode.
func (s *Session) autocommit() bool { return s.varOn("autocommit") }

// asyncPL reports whether ob_enable_pl_async_commit is on for this session.
func (s *Session) asyncPL() bool { return s.varOn("ob_enable_pl_async_commit") }

// Exec runs one statement and returns once everything it committed and
// read is durable.
func (s *Session) Exec(ctx context.Context, query string, args []any) (*exec.Result, error) {
	if args == nil {
		return s.exec(ctx, query, nil) // a query, not an execution (general log)
	}
	vals, err := callout.ToValues(args)
	if err != nil {
		return nil, err
	}
	return s.exec(ctx, query, vals)
}

func (s *Session) exec(ctx context.Context, query string, args []types.Value) (*exec.Result, error) {
	if s.callDepth == 0 {
		s.failedSets = nil // FailedCallSets is the last statement's
	}
	if s.closed || s.database.Engine.Closed() {
		return nil, sqlerr.New(sqlerr.ErServerShutdown, "Server shutdown in progress")
	}
	if s.killed.Load() {
		return nil, sqlerr.New(sqlerr.ErQueryInterrupted, "Query execution was interrupted (connection killed)")
	}
	if err := s.checkStatementSize(query); err != nil {
		return nil, err
	}
	p, err := s.database.plans.Get(query, s.SQLMode().ParserMode())
	if err != nil {
		return nil, err
	}
	if s.callDepth == 0 {
		s.logGeneral(p, args)
	}
	if p.Params != len(args) && p.Kind == parse.KindAST {
		return nil, sqlerr.New(sqlerr.ErWrongArguments, "Incorrect arguments to EXECUTE: the statement has %d placeholders, %d values given", p.Params, len(args))
	}
	nested := s.callDepth > 0
	s.database.Counters.Count(p, !nested)
	if err := s.checkAccess(p); err != nil {
		if !nested {
			s.noteDiagnostics(p, nil, err)
		}
		return nil, err
	}
	if len(s.runningFuncs) > 0 {
		if err := routines.RefuseInFunction(p); err != nil {
			return nil, err
		}
	}
	if nested {
		mark := len(s.stmtTxns) // a statement's transactions end with it
		res, ack, err := s.execParsed(ctx, p, args)
		if err != nil {
			s.reportLockFailure(query, err)
		}
		s.stmtTxns = s.stmtTxns[:mark]
		if ack > s.callAck {
			s.callAck = ack
		}
		return res, MapError(err)
	}
	ctx, cancel := s.begin(ctx, query)
	defer s.end(cancel)
	if err := s.database.Engine.AcquireWorker(ctx); err != nil {
		return nil, MapError(context.Cause(ctx))
	}
	s.StmtNotes, s.StmtWarnings = s.StmtNotes[:0], 0
	res, ack, err := s.execHoldingWorker(func() (*exec.Result, uint64, error) { return s.execParsed(ctx, p, args) })
	if err != nil {
		s.reportLockFailure(query, err)
	}
	if s.StmtWarnings > 0 && err == nil && res != nil {
		res.Notes = append(res.Notes, s.StmtNotes...)
		res.Warnings = uint16(min(int(res.Warnings)+s.StmtWarnings, 65535))
	}
	if res != nil && len(res.Notes) > 0 && !s.varOn("sql_notes") {
		dropNotes(res)
	}
	if err != nil && ctx.Err() != nil {
		if c := context.Cause(ctx); c != nil && !errors.Is(err, c) {
			if _, isSQL := sqlerr.As(err); !isSQL {
				err = c
			}
		}
	}
	if ack > 0 {
		// Reply only once what we committed and read is durable
		// (invariant 3). This waits holding no worker.
		if werr := s.waitAck(ctx, ack); werr != nil && err == nil {
			err = werr
		}
	}
	s.database.Engine.StatementDone()
	err = MapError(err)
	s.noteDiagnostics(p, res, err)
	s.logSlow(p, args, res)
	return res, err
}

// noteDiagnostics keeps what SHOW WARNINGS will list: the last statement's
// notes, or its error. SHOW WARNINGS / SHOW ERRORS themselves keep them.
func (s *Session) noteDiagnostics(p *parse.Stmt, res *exec.Result, err error) {
	if sh, ok := p.Node.(*ast.ShowStmt); ok && (sh.Tp == ast.ShowWarnings || sh.Tp == ast.ShowErrors) {
		return
	}
	s.notes = s.notes[:0]
	failedNotes := s.failedNotes
	s.failedNotes = nil
	if e, ok := sqlerr.As(err); ok {
		// A failed CALL's prints come first, as raised, then the error and
		// where a procedure raised it.
		s.notes = append(s.notes, failedNotes...)
		s.notes = append(s.notes, exec.Note{Level: "Error", Code: e.Code, Message: e.Message})
		if e.Where != "" {
			s.notes = append(s.notes, exec.Note{Level: "Note", Code: sqlerr.ErUnknown, Message: "Raised at " + e.Where})
		}
	} else if res != nil {
		s.notes = append(s.notes, res.Notes...)
	}
}

// waitAck waits for lsn to be durable; a kill or timeout does not cut the
// wait short unless the log fails: a commit that happened is reported.
//
// PROCESSLIST shows the wait in two steps: first for the commits of
// others the statement read from ("waiting for ELR dependents" when ELR
// handed their rows on before they were durable), then for its own
// commit's sync ("waiting for log sync").
func (s *Session) waitAck(ctx context.Context, lsn uint64) error {
	durable := s.database.Engine.DurableLSN()
	if durable >= lsn {
		return nil
	}
	ctx = context.WithoutCancel(ctx)
	dep := s.stmtReadLSN
	if lsn > s.stmtCommitLSN {
		s.database.Txns.NoteReaderWait()
		dep = lsn // all of it is for others' commits
	}
	prev := s.stateP.Load()
	defer s.stateP.Store(prev)
	if dep > durable {
		if s.database.ELR.Load() {
			s.stateP.Store(&stateELRDeps)
		} else {
			s.stateP.Store(&txn.StateLogSync)
		}
		if err := s.database.Txns.WaitDurable(ctx, dep); err != nil {
			return err
		}
	}
	s.stateP.Store(&txn.StateLogSync)
	return s.database.Txns.WaitDurable(ctx, lsn)
}

// begin sets up the statement's cancellable context.
func (s *Session) begin(parent context.Context, query string) (context.Context, context.CancelCauseFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	if ms := s.maxExecTime(); ms > 0 {
		var stop context.CancelFunc
		ctx, stop = context.WithTimeoutCause(ctx, time.Duration(ms)*time.Millisecond, errTimeout)
		inner := cancel
		cancel = func(cause error) { stop(); inner(cause) }
	}
	ctx = membudget.With(ctx, membudget.New(s.statementMemoryLimit()))
	s.lockWait.Reset()
	if s.database.QueryLog.Enabled(querylog.Slow) {
		// Lock_time: only when the slow log may write the statement.
		ctx = lockmgr.WithWaitClock(ctx, &s.lockWait)
	}
	if v, ok := s.vars["innodb_lock_wait_timeout"]; ok {
		secs, _ := strconv.ParseInt(v, 10, 64)
		ctx = lockmgr.WithLockWaitTimeout(ctx, time.Duration(secs)*time.Second)
	}
	s.mu.Lock()
	s.cancel = cancel
	s.command = "Query"
	s.since = time.Now()
	s.StmtStart = s.since
	s.database.Counters.Running(1)
	if len(query) > 1024 {
		query = query[:1024]
	}
	s.query = query
	s.mu.Unlock()
	s.stateP.Store(&stateExecuting)
	s.StmtCtx = ctx
	s.stmtCommitLSN, s.stmtReadLSN = 0, 0
	s.RowsExamined, s.FullScan = 0, false
	return ctx, cancel
}

func (s *Session) end(cancel context.CancelCauseFunc) {
	now := time.Now()
	s.mu.Lock()
	took := now.Sub(s.since)
	s.cancel = nil
	s.command = "Sleep"
	s.since = now
	// s.query stays: it is the statement whose rows a server may still
	// be sending (SendingResult); Info shows it only then.
	s.mu.Unlock()
	s.stateP.Store(nil)
	s.StmtCtx = nil
	cancel(nil)
	s.database.Counters.Running(-1)
	s.slowQuery(took)
}

func (s *Session) maxExecTime() int64 {
	n, _ := strconv.ParseInt(s.getVar(sysvar.Defs["max_execution_time"], false), 10, 64)
	return n
}

// ExecMulti runs a script of statements, stopping at the first error.
func (s *Session) ExecMulti(ctx context.Context, script string) ([]*exec.Result, error) {
	stmts, rest := parse.SplitStatements(script)
	if strings.TrimSpace(rest) != "" {
		stmts = append(stmts, rest)
	}
	var out []*exec.Result
	if len(stmts) > 1 && s.logGeneralScript(script, stmts) {
		s.scriptLogged = true
		defer func() { s.scriptLogged = false }()
	}
	for _, q := range stmts {
		r, err := s.exec(ctx, q, nil)
		if err != nil {
			return out, err
		}
		out = append(out, r)
	}
	return out, nil
}

// currentTxn returns the transaction a statement runs in; auto is true when
// the statement must commit on its own (autocommit with no open txn).
func (s *Session) currentTxn() (x *txn.Txn, auto bool) {
	if s.txn != nil {
		return s.txn, false
	}
	if s.stmtTxn != nil && len(s.runningFuncs) > 0 {
		// A stored function's statement is part of the calling
		// statement, even an autocommit one: committed or rolled back
		// with it, under its row locks.
		return s.stmtTxn, false
	}
	x = s.beginTxn(nil)
	if s.autocommit() {
		return x, true
	}
	s.txn = x
	return x, false
}

// commitOpts are the options for a commit made now by this session.
func (s *Session) commitOpts() txn.CommitOptions {
	early := s.database.ELR.Load()
	if s.callDepth > 0 && s.asyncPL() {
		early = true
	}
	return txn.CommitOptions{EarlyRelease: early}
}

// commitTxn commits x. Inside a CALL under async commit it does not wait
// for durability; the CALL's reply will.
func (s *Session) commitTxn(ctx context.Context, x *txn.Txn) (uint64, error) {
	ack, err := x.Commit(ctx, s.commitOpts())
	if x.CommitLSN() > s.stmtCommitLSN {
		s.stmtCommitLSN = x.CommitLSN()
	}
	if x.ReadLSN() > s.stmtReadLSN {
		s.stmtReadLSN = x.ReadLSN()
	}
	if x.CommitLSN() > s.lastCommitLSN {
		s.lastCommitLSN = x.CommitLSN()
	}
	return ack, err
}

// finishOpen ends the session's open transaction (COMMIT).
func (s *Session) finishOpen(ctx context.Context) (uint64, error) {
	x := s.txn
	s.txn, s.explicit = nil, false
	if x == nil {
		return 0, nil
	}
	defer s.tables.TxnEnded() // its metadata locks end with it
	return s.commitTxn(ctx, x)
}

// rollbackOpen rolls back the session's open transaction.
func (s *Session) rollbackOpen() {
	if s.txn != nil {
		s.txn.Rollback()
		s.tables.TxnEnded()
	}
	s.txn, s.explicit = nil, false
}

// dropNotes removes a result's Note-level diagnostics: under sql_notes=0
// notes are not recorded (SHOW WARNINGS, the warning count), as in MySQL.
func dropNotes(res *exec.Result) {
	kept := res.Notes[:0]
	dropped := 0
	for _, n := range res.Notes {
		if n.Level == "Note" {
			dropped++
			continue
		}
		kept = append(kept, n)
	}
	res.Notes = kept
	res.Warnings = uint16(max(int(res.Warnings)-dropped, 0))
}
