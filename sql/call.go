package sql

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"time"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/test_driver"
	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sql/dataio"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/infoschema"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

func splitProcName(s, defDB string) (db, name string) {
	parts := strings.SplitN(s, ".", 2)
	unq := func(x string) string { return strings.Trim(x, "`") }
	if len(parts) == 2 && !strings.HasPrefix(s, "`") || (len(parts) == 2 && strings.HasPrefix(s, "`") && strings.HasSuffix(parts[0], "`")) {
		return unq(parts[0]), unq(parts[1])
	}
	return defDB, unq(s)
}

func (s *Session) procDB(db string) (string, error) {
	if db == "" {
		return "", sqlerr.New(sqlerr.ErNoDB, "No database selected")
	}
	if s.IsVirtual(db) {
		return infoschema.Name, nil // it has no routines: DROP says so (1305)
	}
	cat := s.database.Txns.Catalog()
	if !cat.HasDatabase(db) {
		return "", sqlerr.New(sqlerr.ErBadDB, "Unknown database '%s'", db)
	}
	return cat.DatabaseName(db), nil
}

// createDB is procDB for CREATE PROCEDURE/FUNCTION: information_schema
// takes none (1044), as in MariaDB.
func (s *Session) createDB(db string) (string, error) {
	if s.IsVirtual(db) {
		return "", s.AccessDenied()
	}
	return s.procDB(db)
}

func (s *Session) execCreateProc(ctx context.Context, p *parse.Stmt) (*exec.Result, uint64, error) {
	def, orReplace, err := procs.ParseCreate(p.Text)
	if err != nil {
		return nil, 0, err
	}
	ack, err := s.finishOpen(ctx)
	if err != nil {
		return nil, ack, err
	}
	return &exec.Result{}, ack, s.CreateProcedure(ctx, def, orReplace)
}

// CreateProcedure compiles def (syntax is checked here), logs it and adds
// it to the catalog.
func (s *Session) CreateProcedure(ctx context.Context, def *procs.Definition, orReplace bool) error {
	db, name := splitProcName(def.Name, s.DB)
	db, err := s.createDB(db)
	if err != nil {
		return err
	}
	d := *def
	d.Name = name
	old, _, exists := s.database.Procs.Get(db, name)
	if exists && !orReplace {
		return sqlerr.New(sqlerr.ErSPAlreadyExists, "PROCEDURE %s already exists", name)
	}
	// The times go into the log record, so a restart shows when the
	// procedure was created and changed, not when the log was replayed.
	d.Modified = time.Now().Format("2006-01-02 15:04:05")
	d.Created = d.Modified
	if exists {
		d.Created = old.Created
	}
	// Compile before logging so a body with a syntax error is never logged.
	if err := procs.NewCatalog(s.database.Runtimes...).CreateIn(db, &d, true); err != nil {
		return err
	}
	raw, err := json.Marshal(&d)
	if err != nil {
		return err
	}
	return s.database.Txns.LogDDL(ctx, &txn.DDLRecord{Op: "create_proc", DB: db, Name: name, Proc: raw}, func() error {
		return s.database.Procs.CreateIn(db, &d, orReplace)
	})
}

func (s *Session) execDropProc(ctx context.Context, p *parse.Stmt) (*exec.Result, uint64, error) {
	db, name := splitProcName(p.Name, s.DB)
	db, err := s.procDB(db)
	if err != nil {
		return nil, 0, err
	}
	if _, _, ok := s.database.Procs.Get(db, name); !ok {
		if p.IfExists {
			return exec.Noted("Note", sqlerr.ErSPDoesNotExist, "PROCEDURE %s.%s does not exist", db, name), 0, nil
		}
		return nil, 0, sqlerr.New(sqlerr.ErSPDoesNotExist, "PROCEDURE %s.%s does not exist", db, name)
	}
	err = s.database.Txns.LogDDL(ctx, &txn.DDLRecord{Op: "drop_proc", DB: db, Name: name}, func() error {
		return s.database.Procs.Drop(db, name, true)
	})
	return &exec.Result{}, 0, err
}

// execCall runs CALL p(args). OUT and INOUT arguments must be user
// variables (@x); they are set when the procedure returns.
func (s *Session) execCall(ctx context.Context, n *ast.CallStmt, args []types.Value) (*exec.Result, uint64, error) {
	db := n.Procedure.Schema.O
	if db == "" {
		db = s.DB
	}
	name := n.Procedure.FnName.O
	def, _, ok := s.database.Procs.Get(db, name)
	if !ok {
		return nil, 0, sqlerr.New(sqlerr.ErSPDoesNotExist, "PROCEDURE %s.%s does not exist", db, name)
	}
	if len(n.Procedure.Args) != len(def.Params) {
		return nil, 0, sqlerr.New(sqlerr.ErSPWrongNoOfArgs, "Incorrect number of arguments for PROCEDURE %s.%s; expected %d, got %d", db, def.Name, len(def.Params), len(n.Procedure.Args))
	}
	sc := &expr.Scope{DB: s.DB, Funcs: s.Functions()}
	ec := &expr.Ctx{Env: &s.Env, Args: args}
	in := make([]any, len(def.Params))
	outVars := make([]string, len(def.Params))
	var outMarkers []int // arguments that are a prepared statement's ?
	for i, a := range n.Procedure.Args {
		prm := def.Params[i]
		if prm.Mode != procs.ModeIn {
			if _, marker := a.(*test_driver.ParamMarkerExpr); marker {
				// A prepared CALL's ? (binary protocol): the value goes
				// back to the client in an OUT-parameter result set.
				outMarkers = append(outMarkers, i)
				if prm.Mode == procs.ModeOut {
					continue
				}
			} else {
				v, ok := a.(*ast.VariableExpr)
				if !ok || v.IsSystem {
					return nil, 0, sqlerr.New(sqlerr.ErSPNotVarArg, "OUT or INOUT argument %d for routine %s.%s is not a variable or NEW pseudo-variable in BEFORE trigger", i+1, db, def.Name)
				}
				outVars[i] = strings.ToLower(v.Name)
				if prm.Mode == procs.ModeOut {
					continue
				}
			}
		}
		ce, err := sc.Compile(a)
		if err != nil {
			return nil, 0, err
		}
		v, err := ce.Fn(ec)
		if err != nil {
			return nil, 0, err
		}
		in[i] = hostValue(v)
	}
	outs, output, ack, err := s.callProc(ctx, db, def.Name, in)
	if err != nil {
		return nil, ack, err
	}
	for i, name := range outVars {
		if name != "" {
			v, _ := goValue(outs[i])
			s.UserVars[name] = v
		}
	}
	res := &exec.Result{AffectedRows: s.callAffected}
	if len(outMarkers) > 0 {
		res.Sets = []*exec.Result{outParamsResult(db, def, outMarkers, outs)}
	}
	return output.finish(res), ack, nil
}

// callProc runs a procedure with this session as its Host. It returns the
// LSN the CALL's reply must wait for: every commit the procedure made and
// every version it read (invariant 3). On error the open transaction is
// rolled back.
func (s *Session) callProc(ctx context.Context, db, name string, in []any) ([]any, *callOutput, uint64, error) {
	leave, err := s.enterProc(db, name)
	if err != nil {
		return nil, nil, 0, err
	}
	defer leave()
	saved := s.procName
	s.procName = db + "." + name
	defer func() { s.procName = saved }()
	return s.runProgram(ctx, func(host procs.Host) ([]any, error) { return s.database.Procs.Call(ctx, host, db, name, in) })
}

// runProgram runs procedure code (a CALL, a DO block) with this session as
// its Host; see callProc. The outermost one collects the result sets and
// notes of every procedure it runs, nested ones included, and returns
// them; a nested one returns a nil *callOutput (whose finish adds
// nothing).
func (s *Session) runProgram(ctx context.Context, run func(procs.Host) ([]any, error)) ([]any, *callOutput, uint64, error) {
	var output *callOutput
	if s.output == nil {
		output = &callOutput{}
		s.output = output
		defer func() { s.output = nil; output.release() }()
	}
	s.callDepth++
	savedAck := s.callAck
	s.callAck = 0
	host := &procHost{s: s}
	outs, err := run(host)
	s.callAffected = host.affected
	ack := s.callAck
	s.callDepth--
	s.callAck = savedAck
	if s.txn != nil && ack < s.txn.ReadLSN() {
		ack = s.txn.ReadLSN()
	}
	if err != nil {
		s.rollbackOpen()
		if output != nil {
			s.failedNotes, s.failedSets = output.notes, output.sets
		}
		if ctx.Err() != nil {
			if c := context.Cause(ctx); c != nil && !isSQLErr(err) {
				return nil, nil, ack, c
			}
			if c := context.Cause(ctx); c != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
				return nil, nil, ack, c
			}
		}
		return nil, nil, ack, err
	}
	return outs, output, ack, nil
}

func isSQLErr(err error) bool { _, ok := sqlerr.As(err); return ok }

// Call runs a procedure by name with Go arguments and returns the
// parameters' values after the call.
func (s *Session) Call(ctx context.Context, name string, args []any) ([]types.Value, error) {
	db, n := splitProcName(name, s.DB)
	ctx, cancel := s.begin(ctx, "CALL "+name)
	defer s.end(cancel)
	if err := s.database.Engine.AcquireWorker(ctx); err != nil {
		return nil, MapError(context.Cause(ctx))
	}
	// Call returns parameters only: a procedure's emit fails with 1312,
	// as in a client that takes no result sets.
	refuse := s.refuseSets
	s.refuseSets = true
	outs, _, ack, err := s.callProc(ctx, db, n, args)
	s.refuseSets = refuse
	s.database.Engine.ReleaseWorker()
	if ack > 0 {
		if werr := s.waitAck(ctx, ack); werr != nil && err == nil {
			err = werr
		}
	}
	if err != nil {
		return nil, MapError(err)
	}
	vals := make([]types.Value, len(outs))
	for i, o := range outs {
		if o == nil && i < len(args) {
			o = args[i]
		}
		vals[i], _ = goValue(o)
	}
	return vals, nil
}

// hostValue converts a Value to what procedures receive.
func hostValue(v types.Value) any {
	switch v.K {
	case types.KindNull:
		return nil
	case types.KindInt:
		return v.I
	case types.KindUint:
		return v.Uint()
	case types.KindFloat:
		return v.F
	}
	return v.String()
}

// procHost is the session as a procedure sees it.
// procHost is the Host of one running CALL or DO block. affected sums the
// rows its statements changed (a nested CALL counts as its own sum): the
// CALL's OK reports it, as MariaDB does.
type procHost struct {
	s        *Session
	affected uint64
}

func (h *procHost) Exec(ctx context.Context, query string, args []any) (*procs.Result, error) {
	vals, err := toValues(args)
	if err != nil {
		return nil, err
	}
	r, err := h.s.exec(ctx, query, vals)
	if err != nil {
		return nil, err
	}
	h.affected += r.AffectedRows
	out := &procs.Result{AffectedRows: r.AffectedRows, LastInsertID: r.LastInsertID, Warnings: r.Warnings, Origin: r}
	if r.Columns != nil {
		out.Columns = make([]string, len(r.Columns))
		for i, c := range r.Columns {
			out.Columns[i] = c.Name
		}
		out.Rows = make([][]any, len(r.Rows))
		for i, row := range r.Rows {
			vs := make([]any, len(row))
			for j, v := range row {
				if v.K == types.KindTime {
					vs[j] = types.FormatTime(v.Time(), r.Columns[j].Type.Scale)
					continue
				}
				vs[j] = hostValue(v)
			}
			out.Rows[i] = vs
		}
	}
	return out, nil
}

func (h *procHost) StartTransaction(ctx context.Context) error {
	s := h.s
	ack, err := s.finishOpen(ctx)
	s.noteAck(ack)
	if err != nil {
		return MapError(err)
	}
	s.txn = s.beginTxn(nil)
	s.explicit = true
	return nil
}

func (s *Session) noteAck(ack uint64) {
	if ack > s.callAck {
		s.callAck = ack
	}
}

func (h *procHost) Commit(ctx context.Context, wait procs.CommitWait) error {
	s := h.s
	ack, err := s.finishOpen(ctx)
	s.noteAck(ack)
	if err != nil {
		return MapError(err)
	}
	if wait == procs.WaitComplete && ack > 0 {
		return MapError(s.database.Txns.WaitDurable(ctx, ack))
	}
	return nil
}

func (h *procHost) Rollback(ctx context.Context) error {
	h.s.rollbackOpen()
	return nil
}

func (h *procHost) Savepoint(ctx context.Context, name string) error {
	s := h.s
	if s.txn == nil {
		s.txn = s.beginTxn(nil)
		s.explicit = true
	}
	s.txn.Savepoint(name)
	return nil
}

func (h *procHost) RollbackToSavepoint(ctx context.Context, name string) error {
	if h.s.txn == nil || !h.s.txn.RollbackToSavepoint(name) {
		return sqlerr.New(sqlerr.ErSavepointNotExist, "SAVEPOINT %s does not exist", name)
	}
	return nil
}

func (h *procHost) ReleaseSavepoint(ctx context.Context, name string) error {
	if h.s.txn == nil || !h.s.txn.ReleaseSavepoint(name) {
		return sqlerr.New(sqlerr.ErSavepointNotExist, "SAVEPOINT %s does not exist", name)
	}
	return nil
}

// loadProcedures runs LOAD PROCEDURE 'path': a *.lua / *.js file, or every
// such file of a folder, each a CREATE OR REPLACE PROCEDURE.
func (s *Session) loadProcedures(ctx context.Context, path string) (int, error) {
	if err := dataio.CheckFilePriv(s.database.Globals.Get("secure_file_priv"), path); err != nil {
		return 0, err
	}
	st, err := os.Stat(path)
	if err != nil {
		return 0, sqlerr.New(sqlerr.ErFileNotFound, "Can't find file: '%s' (%v)", path, err)
	}
	var defs []*procs.Definition
	if st.IsDir() {
		if defs, err = procs.LoadDir(path); err != nil {
			return 0, err
		}
	} else {
		body, err := os.ReadFile(path)
		if err != nil {
			return 0, sqlerr.New(sqlerr.ErFileNotFound, "Can't read file: '%s' (%v)", path, err)
		}
		d, err := procs.ParseFile(path, body)
		if err != nil {
			return 0, err
		}
		defs = []*procs.Definition{d}
	}
	if _, err := s.finishOpen(ctx); err != nil {
		return 0, err
	}
	for _, d := range defs {
		if err := s.CreateProcedure(ctx, d, true); err != nil {
			return 0, err
		}
	}
	return len(defs), nil
}

// ExprEnv lends the session's expression environment to SQL procedures
// (sql/psm's EnvHost), so their conditions and SET of locals evaluate
// natively instead of as statements.
func (h *procHost) ExprEnv() *expr.Env { return &h.s.Env }
