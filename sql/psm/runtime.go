package psm

import (
	"context"
	"errors"

	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// Language is the name SQL procedures carry in LANGUAGE clauses and in
// procs.Definition.Language.
const Language = "SQL"

// Runtime is the SQL/PSM language as a procs.Runtime.
type Runtime struct{}

func (Runtime) Language() string { return Language }

// Compile reads def.Body (BEGIN ... END) once into a tree of compiled
// statements. Syntax errors are 1064 naming the line of the CREATE
// statement (or file) from def.BodyLine.
func (Runtime) Compile(def *procs.Definition) (procs.Program, error) {
	p, err := compile(def, false)
	if err != nil {
		return nil, inFile(def, err)
	}
	return p, nil
}

// inFile names the file of a file-loaded procedure in its compile error
// (the line is already the file's: the file is the CREATE statement).
func inFile(def *procs.Definition, err error) error {
	if e, ok := sqlerr.As(err); ok && def.File != "" {
		return &sqlerr.Error{Code: e.Code, State: e.State, Message: def.File + ": " + e.Message}
	}
	return err
}

// Program is a compiled SQL procedure or function body. It holds no
// per-call state, so any number of calls may run it at once.
type Program struct {
	name      string
	params    []procs.Param
	paramType []types.ColType
	body      stmt
	nslots    int
	ncursors  int
	slotNames []string
	slotTypes []types.ColType
	function  bool
}

func (p *Program) slotType(slot int) types.ColType { return p.slotTypes[slot] }

func compile(def *procs.Definition, function bool) (*Program, error) {
	c := newCompiler(def, function)
	c.pushScope()
	p := &Program{name: def.Name, params: def.Params, function: function}
	for _, prm := range def.Params {
		t, err := varType(prm.Type)
		if err != nil {
			return nil, newErr(1064, "42000", "%s: parameter %s: %v", def.Name, prm.Name, err)
		}
		if _, err := c.declareVar(prm.Name, t); err != nil {
			return nil, err
		}
		p.paramType = append(p.paramType, t)
	}
	var err error
	// The body is one statement: usually BEGIN ... END, but MySQL also
	// takes a bare one (CREATE PROCEDURE p() INSERT ...).
	if p.body, err = c.compileStatement(); err != nil {
		return nil, err
	}
	c.acceptPunct(";")
	if !c.atEnd() || c.peek().kind != tokEOF {
		return nil, c.syntaxError()
	}
	p.nslots, p.ncursors, p.slotNames, p.slotTypes = len(c.slotTypes), c.ncursors, c.slotNames, c.slotTypes
	return p, nil
}

// Call runs the body with args in parameter order and returns the final
// values of the OUT and INOUT parameters (nil for IN ones).
func (p *Program) Call(ctx context.Context, host procs.Host, args []any) ([]any, error) {
	r, err := p.newRunner(ctx, host, args)
	if err != nil {
		return nil, err
	}
	if err := r.run(); err != nil {
		return nil, err
	}
	outs := make([]any, len(p.params))
	for i, prm := range p.params {
		if prm.Mode != procs.ModeIn {
			outs[i] = goValue(r.locals[i])
		}
	}
	return outs, nil
}

func (p *Program) newRunner(ctx context.Context, host procs.Host, args []any) (*runner, error) {
	r := &runner{ctx: ctx, host: host, prog: p, locals: make([]types.Value, p.nslots), cursors: make([]*cursorState, p.ncursors)}
	if eh, ok := host.(EnvHost); ok {
		if env := eh.ExprEnv(); env != nil {
			r.env = env
			r.ectx = expr.Ctx{Env: env, Context: ctx, Notes: &env.StmtNotes}
		}
	}
	for i, prm := range p.params {
		if i >= len(args) || prm.Mode == procs.ModeOut || args[i] == nil {
			continue
		}
		v, err := assign(fromHost(args[i]), p.paramType[i], prm.Name)
		if err != nil {
			return nil, err
		}
		r.locals[i] = v
	}
	return r, nil
}

// run executes the body; a condition no handler took is the CALL's error.
func (r *runner) run() error {
	err := r.runList([]stmt{r.prog.body})
	var u *unhandled
	if errors.As(err, &u) {
		return u.err
	}
	if _, ok := err.(returned); ok && r.prog.function {
		return nil
	}
	if j, ok := err.(*jump); ok {
		_ = j // a LEAVE of the outermost label ends the body
		return nil
	}
	return err
}

// Function is a compiled stored function body (CREATE FUNCTION ...
// BEGIN ... RETURN expr; END, or a bare RETURN expr).
type Function struct{ p *Program }

// CompileFunction compiles def.Body as a function body: RETURN expr is
// allowed and required on every path that ends (else 1321 at run time).
func CompileFunction(def *procs.Definition) (*Function, error) {
	p, err := compile(def, true)
	if err != nil {
		return nil, inFile(def, err)
	}
	return &Function{p: p}, nil
}

// Call runs the function with args in parameter order and returns the
// value of the RETURN that ended it.
func (f *Function) Call(ctx context.Context, host procs.Host, args []any) (types.Value, error) {
	r, err := f.p.newRunner(ctx, host, args)
	if err != nil {
		return types.Null, err
	}
	err = r.runList([]stmt{f.p.body})
	var u *unhandled
	switch {
	case errors.As(err, &u):
		return types.Null, u.err
	case err == nil || isJump(err):
		return types.Null, newErr(erSPNoReturnEnd, "2F005", "FUNCTION %s ended without RETURN", f.p.name)
	}
	if _, ok := err.(returned); ok {
		return r.ret, nil
	}
	return types.Null, err
}

// Eval is Call as a procs.FunctionProgram: the value as the host's
// values are (nil, int64, uint64, float64, string), not yet converted to
// the RETURNS type.
func (f *Function) Eval(ctx context.Context, host procs.Host, args []any) (any, error) {
	v, err := f.Call(ctx, host, args)
	if err != nil {
		return nil, err
	}
	return hostArg(v), nil
}

func isJump(err error) bool { _, ok := err.(*jump); return ok }

// returnStmt is RETURN expr, in function bodies only (1313 elsewhere).
type returnStmt struct{ val *expression }

func (s *returnStmt) exec(r *runner) error {
	v, err := r.eval(s.val)
	if err != nil {
		return err
	}
	r.ret = v
	return returned{}
}

func (c *compiler) compileReturn() (stmt, error) {
	c.i++ // RETURN
	if !c.function {
		return nil, newErr(1313, "42000", "RETURN is only allowed in a FUNCTION")
	}
	from := c.i
	c.scanUntil()
	e, err := c.compileExpr(from, c.i)
	if err != nil {
		return nil, err
	}
	return &returnStmt{val: e}, nil
}
