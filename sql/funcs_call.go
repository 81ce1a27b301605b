package sql

import (
	"context"
	"github.com/plrun/plrun/sql/access"
	"github.com/plrun/plrun/sql/callout"
	"github.com/plrun/plrun/sql/routines"
	"strings"

	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sql/psm"
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

// A stored function as a plan holds it: resolved and compiled once per
// plan build (StoredFunction), then evaluated per row (CallStoredFunction)
// with no parse or compile on that path.
type compiledFunc struct {
	db        string
	key       string // lower(db.name): what recursion checks compare
	def       *procs.Definition
	prog      procs.FunctionProgram // Lua, JavaScript
	body      *expr.Expr            // SQL: RETURN expr, parameters as ? markers
	params    []types.ColType
	returns   types.ColType
	retStrict bool // the function's own sql_mode is strict (return conversion)
	// reads are the privileges a SQL RETURN expression needs on the
	// tables it reads, checked at each call with the definer's rights
	reads []access.Need
}

// StoredFunction implements expr.FunctionHost: db.name for a statement
// being compiled, nil if there is none.
func (s *Session) StoredFunction(db, name string) (*expr.StoredFunction, error) {
	cat := s.database.Txns.Catalog()
	if !cat.HasDatabase(db) {
		return nil, nil
	}
	db = cat.DatabaseName(db)
	def, prog, ok := s.database.Procs.GetFunction(db, name)
	if !ok {
		return nil, nil
	}
	cf, err := s.compileFunction(db, def, prog, true)
	if err != nil {
		return nil, err
	}
	return &expr.StoredFunction{DB: db, Name: def.Name, NParams: len(def.Params), Returns: cf.returns, Impl: cf}, nil
}

// compileFunction reads def's declared types and, for a SQL body with
// compileBody, compiles it (at plan build: the functions it calls are
// resolved then).
func (s *Session) compileFunction(db string, def *procs.Definition, prog procs.FunctionProgram, compileBody bool) (*compiledFunc, error) {
	cf := &compiledFunc{db: db, key: strings.ToLower(db + "." + def.Name), def: def, prog: prog, params: make([]types.ColType, len(def.Params))}
	for i, prm := range def.Params {
		t, err := parse.TypeOf(prm.Type)
		if err != nil {
			return nil, err
		}
		cf.params[i] = t
	}
	t, err := parse.TypeOf(def.Func.Returns)
	if err != nil {
		return nil, err
	}
	cf.returns = t
	mode, _ := sysvar.ParseSQLMode(def.Func.SQLMode)
	cf.retStrict = mode.Strict()
	if def.Language == procs.LanguageSQL && routines.IsCompoundBody(def.Body) {
		// BEGIN ... RETURN ...; END: a SQL/PSM body, run like a Lua or
		// JavaScript one (evalScriptFunction) through the function host.
		f, err := psm.CompileFunction(def)
		if err != nil {
			return nil, err
		}
		cf.prog = f
		return cf, nil
	}
	if def.Language != procs.LanguageSQL || !compileBody {
		return cf, nil
	}
	key := cf.key
	for _, k := range s.compilingFuncs {
		if k == key {
			return nil, sqlerr.New(sqlerr.ErSPNoRecursion, "Recursive stored functions and triggers are not allowed")
		}
	}
	s.compilingFuncs = append(s.compilingFuncs, key)
	defer func() { s.compilingFuncs = s.compilingFuncs[:len(s.compilingFuncs)-1] }()
	e, err := routines.ParseSQLFunctionBody(def, mode)
	if err != nil {
		return nil, err
	}
	cf.reads = access.ReadNeeds(e)
	cf.body, err = (&expr.Scope{DB: db, Funcs: s.Functions(), Sub: &s.State}).Compile(e)
	return cf, err
}

// CallStoredFunction implements expr.FunctionHost: one call, for one row.
// Arguments convert to the parameter types under the caller's sql_mode,
// the result to the RETURNS type under the function's, as in MariaDB.
func (s *Session) CallStoredFunction(c *expr.Ctx, f *expr.StoredFunction, call string, args []types.Value) (types.Value, error) {
	cf := f.Impl.(*compiledFunc)
	if err := s.checkExecute(f.DB, f.Name); err != nil {
		return types.Null, err
	}
	strict := s.SQLMode().Strict()
	for i, a := range args {
		v, err := s.State.AssignTo(cf.def.Params[i].Name, cf.params[i], a, 1, strict)
		if err != nil {
			return types.Null, err
		}
		args[i] = v
	}
	var out types.Value
	var err error
	if cf.body != nil && len(cf.reads) > 0 && s.grants != nil {
		if err := s.checkFunctionReads(cf); err != nil {
			return types.Null, err
		}
	}
	if cf.body != nil {
		// One Ctx per nesting level, reused row after row.
		depth := s.bodyDepth
		if depth == len(s.bodyCtxs) {
			s.bodyCtxs = append(s.bodyCtxs, &expr.Ctx{})
		}
		ec := s.bodyCtxs[depth]
		*ec = expr.Ctx{Env: c.Env, Args: args, Context: c.Context, Txn: c.Txn, Mem: c.Mem, Notes: c.Notes}
		s.bodyDepth++
		out, err = cf.body.Fn(ec)
		s.bodyDepth--
		*ec = expr.Ctx{}
	} else {
		// a script body's statements run with the function's definer's
		// rights (a RETURN expression reads with them: it is not checked)
		restore, rerr := s.runAsRoutine(cf.db, cf.def)
		if rerr != nil {
			return types.Null, rerr
		}
		out, err = s.evalScriptFunction(c, cf, args)
		restore()
	}
	if err != nil {
		return types.Null, err
	}
	return s.State.AssignTo(call, cf.returns, out, 0, cf.retStrict)
}

// evalScriptFunction runs a Lua or JavaScript function body with the
// session as its host, nested in the running statement as a CALL's
// statements are.
func (s *Session) evalScriptFunction(c *expr.Ctx, cf *compiledFunc, args []types.Value) (types.Value, error) {
	key := cf.key
	for _, k := range s.runningFuncs {
		if k == key {
			return types.Null, sqlerr.New(sqlerr.ErSPNoRecursion, "Recursive stored functions and triggers are not allowed")
		}
	}
	// The arguments' slice is reused per nesting level (a body's
	// statements may call functions too).
	depth := len(s.runningFuncs)
	for len(s.funcArgs) <= depth {
		s.funcArgs = append(s.funcArgs, nil)
	}
	in := s.funcArgs[depth][:0]
	for _, a := range args {
		in = append(in, callout.HostValue(a))
	}
	s.funcArgs[depth] = in
	defer clear(in)
	ctx := c.Context
	if ctx == nil {
		ctx = context.Background()
	}
	s.runningFuncs = append(s.runningFuncs, key)
	topLevel := s.callDepth == 0
	savedAck := s.callAck
	s.callAck = 0
	s.callDepth++
	if s.functionHost == nil {
		s.functionHost = envFunctionHost{Host: procs.FunctionHost(&procHost{s: s}), env: &s.Env}
	}
	x := s.stmtTxn
	var outer txn.StatementState
	if x != nil {
		outer = x.SuspendStatement()
	}
	r, err := cf.prog.Eval(ctx, s.functionHost, in)
	if x != nil {
		x.ResumeStatement(outer)
	}
	s.callDepth--
	s.runningFuncs = s.runningFuncs[:len(s.runningFuncs)-1]
	ack := s.callAck
	s.callAck = max(savedAck, ack)
	if topLevel {
		s.callAck = savedAck
		if x == nil && ack > 0 {
			// No statement transaction took the body's statements in
			// (SET @x = f()): they committed on their own, and the
			// statement may not reply before that is durable
			// (invariant 3). Inside a statement's transaction their
			// reads are its reads; inside a CALL, the CALL waits.
			if werr := s.database.Txns.WaitDurable(ctx, ack); werr != nil && err == nil {
				err = werr
			}
		}
	}
	if err != nil {
		return types.Null, MapError(err)
	}
	return callout.GoValue(r)
}

// envFunctionHost is a function body's host (procs.FunctionHost: no
// transaction control) that still lends the session's Env to SQL bodies
// (sql/psm's EnvHost), so their conditions and SET of locals evaluate
// natively, as in procedures, instead of as one-row SELECTs.
type envFunctionHost struct {
	procs.Host
	env *expr.Env
}

// ExprEnv is the session's expression environment (psm.EnvHost).
func (h envFunctionHost) ExprEnv() *expr.Env { return h.env }
