package sql

import (
	"context"
	"errors"
	"github.com/plrun/plrun/sql/callout"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/test_driver"
	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/routines"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

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
		in[i] = callout.HostValue(v)
	}
	outs, output, ack, err := s.callProc(ctx, db, def.Name, in)
	if err != nil {
		return nil, ack, err
	}
	for i, name := range outVars {
		if name != "" {
			v, _ := callout.GoValue(outs[i])
			s.UserVars[name] = v
		}
	}
	res := &exec.Result{AffectedRows: s.callAffected}
	if len(outMarkers) > 0 {
		res.Sets = []*exec.Result{callout.OutParams(db, def, outMarkers, outs)}
	}
	return output.Finish(res), ack, nil
}

// callProc runs a procedure with this session as its Host. It returns the
// LSN the CALL's reply must wait for: every commit the procedure made and
// every version it read (invariant 3). On error the open transaction is
// rolled back.
func (s *Session) callProc(ctx context.Context, db, name string, in []any) ([]any, *callout.Output, uint64, error) {
	leave, err := s.enterProc(db, name)
	if err != nil {
		return nil, nil, 0, err
	}
	defer leave()
	if def, _, ok := s.database.Procs.Get(db, name); ok {
		restore, err := s.runAsRoutine(db, def)
		if err != nil {
			return nil, nil, 0, err
		}
		defer restore()
	}
	saved := s.procName
	s.procName = db + "." + name
	defer func() { s.procName = saved }()
	return s.runProgram(ctx, func(host procs.Host) ([]any, error) { return s.database.Procs.Call(ctx, host, db, name, in) })
}

// runProgram runs procedure code (a CALL, a DO block) with this session as
// its Host; see callProc. The outermost one collects the result sets and
// notes of every procedure it runs, nested ones included, and returns
// them; a nested one returns a nil *callout.Output (whose finish adds
// nothing).
func (s *Session) runProgram(ctx context.Context, run func(procs.Host) ([]any, error)) ([]any, *callout.Output, uint64, error) {
	var output *callout.Output
	if s.output == nil {
		output = &callout.Output{}
		s.output = output
		defer func() { s.output = nil; output.Release() }()
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
			s.failedNotes, s.failedSets = output.Failed()
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
	db, n := routines.SplitName(name, s.DB)
	if err := s.checkRoutineExecute(db, n, false); err != nil {
		return nil, err
	}
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
		vals[i], _ = callout.GoValue(o)
	}
	return vals, nil
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
	vals, err := callout.ToValues(args)
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
				vs[j] = callout.HostValue(v)
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

// ExprEnv lends the session's expression environment to SQL procedures
// (sql/psm's EnvHost), so their conditions and SET of locals evaluate
// natively instead of as statements.
func (h *procHost) ExprEnv() *expr.Env { return &h.s.Env }
