package lua

import (
	"context"
	"strings"

	glua "github.com/yuin/gopher-lua"

	"github.com/plrun/plrun/membudget"
	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sqlerr"
)

// CompileFunction compiles a stored function's body as the body of a Lua
// function of the parameters, by name, whose return value is the result:
// the chunk is "return function(a, b) BODY end", the wrapper on the body's
// first line so that line numbers in errors are the body's.
//
// A function is called once per row, so its per-call path is lean: each
// pooled VM runs the chunk once and keeps the function it returns, the
// parameters are the function's locals (no environment table per call),
// and the heap watch starts only for a call that runs past one sample
// (membudget.LazyWatch). Globals a body assigns would outlive the call on
// that VM, so its environment refuses them: state belongs in locals.
func (rt *Runtime) CompileFunction(def *procs.Definition) (procs.FunctionProgram, error) {
	names := make([]string, len(def.Params))
	for i, prm := range def.Params {
		if !luaIdent.MatchString(prm.Name) || luaKeywords[prm.Name] || prm.Name == "session" {
			return nil, procs.SyntaxErrorAt(procs.SourceOf(def), 0, "parameter name '"+prm.Name+"' is not usable as a Lua variable")
		}
		names[i] = prm.Name
	}
	d := procs.Definition{Name: def.Name, Language: def.Language,
		Body: "return function(" + strings.Join(names, ", ") + ") " + def.Body + "\nend"}
	prog, err := rt.Compile(&d)
	if err != nil {
		return nil, err
	}
	return &function{rt: rt, prog: prog.(*program), nparams: len(names)}, nil
}

// function is a compiled stored function; the per-VM closures live in
// vm.functions.
type function struct {
	rt      *Runtime
	prog    *program
	nparams int
}

// Eval runs one call on a pooled LState.
func (f *function) Eval(ctx context.Context, host procs.Host, args []any) (result any, err error) {
	if len(args) != f.nparams {
		return nil, sqlerr.New(sqlerr.ErSPWrongNoOfArgs,
			"Incorrect number of arguments for FUNCTION %s; expected %d, got %d", f.prog.name, f.nparams, len(args))
	}
	v := f.rt.pool.Get()
	reuse := false
	defer func() {
		v.endCall()
		if r := recover(); r != nil {
			result, err, reuse = nil, procs.InternalErrorAt(f.prog.name, r), false
		}
		if reuse {
			f.rt.pool.Put(v)
		} else {
			v.L.Close()
		}
	}()
	v.host, v.ctx = host, ctx
	L := v.L
	fn, err := v.functionOf(f)
	if err != nil {
		reuse = true
		return nil, f.prog.mapError(ctx, v, err)
	}
	vmCtx := v.callContext(ctx)
	if v.cancelCall == nil {
		v.cancelCall = func(err error) { v.fnCancel(err) }
	}
	v.fnWatch.Start(membudget.From(ctx), v.cancelCall)
	L.SetContext(vmCtx)
	L.Push(fn)
	for _, a := range args {
		L.Push(toLua(a))
	}
	callErr := L.PCall(len(args), 1, nil)
	v.fnWatch.Stop()
	L.RemoveContext()
	overBudget := vmCtx.Err() != nil && ctx.Err() == nil
	if callErr != nil && overBudget {
		return nil, budgetError(f.prog.src, context.Cause(vmCtx))
	}
	ret := L.Get(-1)
	L.SetTop(0)
	reuse = true
	if callErr != nil {
		return nil, f.prog.mapError(ctx, v, callErr)
	}
	val, ok := fromLua(ret, v.null)
	if !ok {
		return nil, procs.ScriptErrorAt(f.prog.src, 0, "FUNCTION "+f.prog.name+" returned a "+ret.Type().String()+", not a SQL value")
	}
	return val, nil
}

// functionOf is f's closure on this VM, made by running its chunk once.
func (v *vm) functionOf(f *function) (*glua.LFunction, error) {
	if fn := v.functions[f]; fn != nil {
		return fn, nil
	}
	if v.functions == nil {
		v.functions = map[*function]*glua.LFunction{}
		v.functionEnv = v.L.NewTable()
		meta := v.L.NewTable()
		meta.RawSetString("__index", v.L.G.Global)
		meta.RawSetString("__newindex", v.L.NewFunction(func(L *glua.LState) int {
			L.RaiseError("assignment to global '%s' in a function: use a local", L.ToString(2))
			return 0
		}))
		meta.RawSetString("__metatable", glua.LString("protected"))
		v.functionEnv.Metatable = meta
	}
	L := v.L
	chunk := L.NewFunctionFromProto(f.prog.proto)
	chunk.Env = v.functionEnv
	L.Push(chunk)
	if err := L.PCall(0, 1, nil); err != nil {
		L.SetTop(0)
		return nil, err
	}
	fn, _ := L.Get(-1).(*glua.LFunction)
	L.SetTop(0)
	if fn == nil {
		return nil, procs.InternalErrorAt(f.prog.name, "function chunk returned no function")
	}
	v.functions[f] = fn
	return fn, nil
}

// callContext is the context a function call runs the VM under: ctx,
// also cancelled (cause: error 3170) by the heap watch. It is kept on the
// VM while calls come with the same ctx (the rows of one statement), so
// a call does not allocate one.
func (v *vm) callContext(ctx context.Context) context.Context {
	if v.fnParent == ctx && v.fnCtx.Err() == nil {
		return v.fnCtx
	}
	if v.fnCancel != nil {
		v.fnCancel(nil)
	}
	v.fnCtx, v.fnCancel = context.WithCancelCause(ctx)
	v.fnParent = ctx
	return v.fnCtx
}
