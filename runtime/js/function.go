package js

import (
	"context"
	"strings"

	"github.com/dop251/goja"

	"github.com/plrun/plrun/membudget"
	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sqlerr"
)

// CompileFunction compiles a stored function's body as the body of a
// JavaScript function of the parameters, by name, whose return value is
// the result (MySQL 9's CREATE FUNCTION ... LANGUAGE JAVASCRIPT). The
// wrapper is on the body's first line, so line numbers in errors are the
// body's.
//
// A function is called once per row, so its per-call path is lean: each
// pooled VM evaluates the wrapper once and keeps the function value, and
// the heap watch starts only for a call that runs past one sample
// (membudget.LazyWatch). Strict mode and the frozen globals keep a call
// from leaving state behind on the VM.
func (rt *Runtime) CompileFunction(def *procs.Definition) (procs.FunctionProgram, error) {
	names := make([]string, 0, len(def.Params)+1)
	names = append(names, "session")
	for _, prm := range def.Params {
		if !jsIdent.MatchString(prm.Name) || prm.Name == "session" {
			return nil, procs.SyntaxErrorAt(procs.SourceOf(def), 0, "parameter name '"+prm.Name+"' is not usable as a JavaScript variable")
		}
		names = append(names, prm.Name)
	}
	src := "(function(" + strings.Join(names, ", ") + ") {" + def.Body + "\n})"
	prog, err := compileBody(def, src)
	if err != nil {
		return nil, err
	}
	p := &program{rt: rt, name: def.Name, src: procs.SourceOf(def), params: append([]procs.Param(nil), def.Params...), prog: prog}
	return &function{prog: p}, nil
}

// function is a compiled stored function; the per-VM function values
// live in vm.functions.
type function struct{ prog *program }

// Eval runs one call on a pooled VM.
func (f *function) Eval(ctx context.Context, host procs.Host, args []any) (result any, err error) {
	p := f.prog
	if len(args) != len(p.params) {
		return nil, sqlerr.New(sqlerr.ErSPWrongNoOfArgs,
			"Incorrect number of arguments for FUNCTION %s; expected %d, got %d", p.name, len(p.params), len(args))
	}
	v := p.rt.pool.Get()
	reuse := false
	defer func() {
		v.endCall()
		if r := recover(); r != nil {
			result, err, reuse = nil, procs.InternalErrorAt(p.name, r), false
		}
		if reuse {
			p.rt.pool.Put(v)
		}
	}()
	v.host, v.ctx = host, ctx
	fn, err := v.functionOf(f)
	if err != nil {
		reuse = true
		return nil, p.mapError(ctx, v, err)
	}
	callArgs := v.fnArgs[:0]
	callArgs = append(callArgs, v.session)
	for _, a := range args {
		callArgs = append(callArgs, v.toJS(a))
	}
	v.fnArgs = callArgs[:0]
	if v.interruptCall == nil {
		v.interruptCall = func(err error) { v.r.Interrupt(err) }
	}
	v.fnWatch.Start(membudget.From(ctx), v.interruptCall)
	var ret goja.Value
	var runErr error
	if err := v.interruptOn(ctx); err != nil {
		runErr = err // ended while this VM was idle
	} else {
		ret, runErr = fn(goja.Undefined(), callArgs...)
	}
	v.endInterrupt()
	v.fnWatch.Stop()
	clear(callArgs)
	v.r.ClearInterrupt()
	reuse = true
	if runErr != nil {
		return nil, p.mapError(ctx, v, runErr)
	}
	val, ok := fromJS(ret)
	if !ok {
		return nil, procs.ScriptErrorAt(p.src, 0, "FUNCTION "+p.name+" returned an object, not a SQL value")
	}
	return val, nil
}

// functionOf is f's function value on this VM, made by running its
// wrapper once.
func (v *vm) functionOf(f *function) (goja.Callable, error) {
	if fn := v.functions[f]; fn != nil {
		return fn, nil
	}
	val, err := v.r.RunProgram(f.prog.prog)
	if err != nil {
		return nil, err
	}
	fn, ok := goja.AssertFunction(val)
	if !ok {
		return nil, procs.InternalErrorAt(f.prog.name, "wrapper is not a function")
	}
	if v.functions == nil {
		v.functions = map[*function]goja.Callable{}
	}
	v.functions[f] = fn
	return fn, nil
}

// interruptOn makes ctx's end interrupt this VM while a function runs on
// it. The AfterFunc is registered once per ctx and VM (the rows of one
// statement), not per call: it interrupts only while fnRunning is ctx,
// which endInterrupt clears under the same lock before ClearInterrupt, so
// a late interrupt never reaches the VM's next user.
func (v *vm) interruptOn(ctx context.Context) error {
	if ctx.Done() == nil {
		return nil
	}
	if v.fnAfter != ctx {
		if v.fnAfterStop != nil {
			v.fnAfterStop()
		}
		v.fnAfter = ctx
		v.fnAfterStop = context.AfterFunc(ctx, func() {
			v.fnMu.Lock()
			if v.fnRunning == ctx {
				v.r.Interrupt(ctx.Err())
			}
			v.fnMu.Unlock()
		})
	}
	v.fnMu.Lock()
	v.fnRunning = ctx
	v.fnMu.Unlock()
	return ctx.Err()
}

func (v *vm) endInterrupt() {
	v.fnMu.Lock()
	v.fnRunning = nil
	v.fnMu.Unlock()
}
