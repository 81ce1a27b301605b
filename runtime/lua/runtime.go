package lua

import (
	"context"
	"errors"
	"regexp"
	"strings"

	glua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/parse"

	"github.com/plrun/plrun/membudget"
	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/runtime/vmpool"
	"github.com/plrun/plrun/sqlerr"
)

// Options configure a Runtime.
type Options struct {
	// PoolSize is how many idle LStates the Runtime keeps for reuse;
	// 0 means 2*GOMAXPROCS. Calls beyond it create VMs that are dropped
	// afterwards, so it bounds memory, not concurrency.
	PoolSize int
}

// Runtime compiles Lua procedure bodies; it implements procs.Runtime.
type Runtime struct {
	pool *vmpool.Pool[*vm]
}

// New returns a Lua runtime.
func New(opts Options) procs.Runtime {
	return &Runtime{pool: vmpool.New(opts.PoolSize, newVM, func(v *vm) { v.L.Close() })}
}

// Language is "LUA".
func (rt *Runtime) Language() string { return procs.LanguageLua }

var luaIdent = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

var luaKeywords = map[string]bool{
	"and": true, "break": true, "do": true, "else": true, "elseif": true, "end": true,
	"false": true, "for": true, "function": true, "if": true, "in": true, "local": true,
	"nil": true, "not": true, "or": true, "repeat": true, "return": true, "then": true,
	"true": true, "until": true, "while": true, "goto": true,
}

// Compile parses and compiles def.Body once.
func (rt *Runtime) Compile(def *procs.Definition) (procs.Program, error) {
	src := procs.SourceOf(def)
	for _, prm := range def.Params {
		if !luaIdent.MatchString(prm.Name) || luaKeywords[prm.Name] || prm.Name == "session" {
			return nil, procs.SyntaxErrorAt(src, 0, "parameter name '"+prm.Name+"' is not usable as a Lua global")
		}
	}
	chunk, err := parse.Parse(strings.NewReader(def.Body), def.Name)
	if err != nil {
		var pe *parse.Error
		if errors.As(err, &pe) {
			return nil, procs.SyntaxErrorAt(src, pe.Pos.Line, pe.Message+" near '"+pe.Token+"'")
		}
		return nil, procs.SyntaxErrorAt(src, 0, err.Error())
	}
	rewriteConcat(chunk)
	proto, err := glua.Compile(chunk, def.Name)
	if err != nil {
		var ce *glua.CompileError
		if errors.As(err, &ce) {
			return nil, procs.SyntaxErrorAt(src, ce.Line, ce.Message)
		}
		return nil, procs.SyntaxErrorAt(src, 0, err.Error())
	}
	return &program{rt: rt, name: def.Name, src: src, params: append([]procs.Param(nil), def.Params...), proto: proto}, nil
}

// program is a compiled body; proto is immutable and shared by all VMs.
type program struct {
	rt     *Runtime
	name   string
	src    procs.Source
	params []procs.Param
	proto  *glua.FunctionProto
}

// Call runs the body on a pooled LState.
func (p *program) Call(ctx context.Context, host procs.Host, args []any) (outs []any, err error) {
	if len(args) != len(p.params) {
		return nil, sqlerr.New(sqlerr.ErSPWrongNoOfArgs,
			"Incorrect number of arguments for PROCEDURE %s; expected %d, got %d", p.name, len(p.params), len(args))
	}
	v := p.rt.pool.Get()
	reuse := false
	defer func() {
		v.endCall()
		if r := recover(); r != nil {
			outs, err, reuse = nil, procs.InternalErrorAt(p.name, r), false
		}
		if reuse {
			p.rt.pool.Put(v)
		} else {
			v.L.Close()
		}
	}()
	v.host, v.ctx = host, ctx
	L := v.L
	env := L.CreateTable(0, len(p.params)+4)
	env.Metatable = v.envMeta
	env.RawSetString("_G", env)
	for i, prm := range p.params {
		if prm.Mode == procs.ModeOut {
			continue
		}
		env.RawSetString(prm.Name, toLua(args[i]))
	}
	fn := L.NewFunctionFromProto(p.proto)
	fn.Env = env
	// The VM runs under vmCtx: the call's context, also cancelled (cause:
	// error 3170) when what the script grows step by step (tables) passes
	// the memory budget, which membudget.Watch samples.
	vmCtx, cancelVM := context.WithCancelCause(ctx)
	stopWatch := membudget.From(ctx).Watch(cancelVM)
	L.SetContext(vmCtx)
	L.Push(fn)
	callErr := L.PCall(0, 0, nil)
	stopWatch()
	L.RemoveContext()
	overBudget := vmCtx.Err() != nil && ctx.Err() == nil
	cancelVM(nil)
	if callErr != nil && overBudget {
		return nil, budgetError(p.src, context.Cause(vmCtx))
	}
	L.SetTop(0)
	reuse = true
	if callErr != nil {
		return nil, p.mapError(ctx, v, callErr)
	}
	outs = make([]any, len(p.params))
	for i, prm := range p.params {
		if prm.Mode == procs.ModeIn {
			continue
		}
		val, ok := fromLua(env.RawGetString(prm.Name), v.null)
		if !ok {
			return nil, procs.ScriptErrorAt(p.src, 0,
				"OUT parameter "+prm.Name+" holds a "+env.RawGetString(prm.Name).Type().String()+", not a SQL value")
		}
		outs[i] = val
	}
	return outs, nil
}

// budgetError is the CALL's error when the heap watch stopped it.
func budgetError(src procs.Source, cause error) error {
	if e, ok := sqlerr.As(cause); ok {
		return procs.SQLErrorAt(src, 0, e)
	}
	return procs.InternalErrorAt(src.Proc, cause)
}

var lineRE = regexp.MustCompile(`:(\d+):`)

// mapError turns what PCall returned into the error Call reports: an
// error the script raised itself (error(...)) keeps its message exactly,
// with the place in Where; a runtime error or an uncaught SQL error says
// where in its message.
func (p *program) mapError(ctx context.Context, v *vm, err error) error {
	if ctx.Err() != nil {
		return procs.InterruptedAt(p.src, 0, ctx.Err())
	}
	var ae *glua.ApiError
	if !errors.As(err, &ae) {
		return procs.ScriptErrorAt(p.src, 0, err.Error())
	}
	if ae.Type == glua.ApiErrorPanic {
		return procs.InternalErrorAt(p.name, ae.Object.String())
	}
	switch obj := ae.Object.(type) {
	case *glua.LUserData:
		if se, ok := obj.Value.(*scriptSQLError); ok {
			return procs.SQLErrorAt(p.src, se.line, se.err)
		}
	case *glua.LTable:
		if se, ok := sqlErrorFromTable(obj); ok {
			return procs.RaisedAt(p.src, p.lineIn(ae.StackTrace), se)
		}
	case glua.LString:
		msg := string(obj)
		line := p.lineIn(ae.StackTrace)
		prefix := p.name + ":"
		if rest, ok := strings.CutPrefix(msg, prefix); ok {
			if num, after, ok := strings.Cut(rest, ":"); ok {
				if n := atoi(num); n > 0 {
					line, msg = n, strings.TrimPrefix(after, " ")
				}
			}
		}
		if v.raised != nil && strings.HasSuffix(string(obj), *v.raised) {
			return procs.ThrownAt(p.src, line, *v.raised)
		}
		return procs.ScriptErrorAt(p.src, line, msg)
	}
	// Only error() raises a value that is not a string (gopher-lua's own
	// runtime errors are strings).
	return procs.ThrownAt(p.src, p.lineIn(ae.StackTrace), ae.Object.String())
}

// lineIn finds the first "name:N:" of a gopher-lua stack trace.
func (p *program) lineIn(trace string) int {
	for _, ln := range strings.Split(trace, "\n") {
		ln = strings.TrimSpace(ln)
		if rest, ok := strings.CutPrefix(ln, p.name); ok {
			if m := lineRE.FindStringSubmatch(rest); m != nil && strings.HasPrefix(rest, m[0]) {
				return atoi(m[1])
			}
		}
	}
	return 0
}

func atoi(s string) int {
	n := 0
	if s == "" || len(s) > 9 {
		return 0
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0
		}
		n = n*10 + int(c-'0')
	}
	return n
}
