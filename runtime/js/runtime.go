package js

import (
	"context"
	"errors"
	"regexp"
	"strconv"
	"strings"

	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"

	"github.com/plrun/plrun/membudget"
	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/runtime/vmpool"
	"github.com/plrun/plrun/sqlerr"
)

// Options configure a Runtime.
type Options struct {
	// PoolSize is how many idle VMs the Runtime keeps for reuse; 0 means
	// 2*GOMAXPROCS. It bounds memory, not concurrency.
	PoolSize int
}

// Runtime compiles JavaScript procedure bodies; it implements procs.Runtime.
type Runtime struct {
	pool *vmpool.Pool[*vm]
}

// New returns a JavaScript runtime.
func New(opts Options) procs.Runtime {
	return &Runtime{pool: vmpool.New(opts.PoolSize, newVM, func(*vm) {})}
}

// Language is "JAVASCRIPT".
func (rt *Runtime) Language() string { return procs.LanguageJavaScript }

var jsIdent = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

// Compile wraps and compiles def.Body once.
func (rt *Runtime) Compile(def *procs.Definition) (procs.Program, error) {
	src := procs.SourceOf(def)
	names := make([]string, len(def.Params))
	for i, prm := range def.Params {
		if !jsIdent.MatchString(prm.Name) || prm.Name == "session" {
			return nil, procs.SyntaxErrorAt(src, 0, "parameter name '"+prm.Name+"' is not usable as a JavaScript variable")
		}
		names[i] = prm.Name
	}
	list := strings.Join(names, ", ")
	// Everything before BODY is on its first line, so line numbers match.
	wrapped := "(function(session" + prefixComma(list) + ") {(function() {" + def.Body +
		"\n})(); return [" + list + "]; })"
	prog, err := compileBody(def, wrapped)
	if err != nil {
		return nil, err
	}
	return &program{rt: rt, name: def.Name, src: src, params: append([]procs.Param(nil), def.Params...), prog: prog}, nil
}

// compileBody parses and compiles wrapped, the body of def inside its
// wrapper (which starts on the body's first line), with every string-
// building expression routed through concatGlobal; syntax errors carry
// the body's line.
func compileBody(def *procs.Definition, wrapped string) (*goja.Program, error) {
	src := procs.SourceOf(def)
	tree, err := parser.ParseFile(nil, def.Name, wrapped, 0)
	if err != nil {
		var list parser.ErrorList
		if errors.As(err, &list) && len(list) > 0 {
			return nil, procs.SyntaxErrorAt(src, list[0].Position.Line, list[0].Message)
		}
		return nil, procs.SyntaxErrorAt(src, 0, err.Error())
	}
	rewriteConcat(tree)
	prog, err := goja.CompileAST(tree, true)
	if err != nil {
		var se *goja.CompilerSyntaxError
		if errors.As(err, &se) && se.File != nil {
			return nil, procs.SyntaxErrorAt(src, se.File.Position(se.Offset).Line, se.Message)
		}
		return nil, procs.SyntaxErrorAt(src, 0, err.Error())
	}
	return prog, nil
}

func prefixComma(s string) string {
	if s == "" {
		return ""
	}
	return ", " + s
}

// program is a compiled body; prog is immutable and shared by all VMs.
type program struct {
	rt     *Runtime
	name   string
	src    procs.Source
	params []procs.Param
	prog   *goja.Program
}

// Call runs the body on a pooled VM.
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
		}
	}()
	v.host, v.ctx = host, ctx

	var ret goja.Value
	var runErr error
	// What the script grows step by step is watched against the budget;
	// the watch interrupts the VM with error 3170 (and has ended before
	// ClearInterrupt below).
	stopWatch := membudget.From(ctx).Watch(func(err error) { v.r.Interrupt(err) })
	defer stopWatch()
	if ctx.Done() == nil {
		ret, runErr = p.run(v, args)
		stopWatch()
	} else {
		interrupted := make(chan struct{})
		stop := context.AfterFunc(ctx, func() {
			v.r.Interrupt(ctx.Err())
			close(interrupted)
		})
		ret, runErr = p.run(v, args)
		stopWatch()
		if !stop() {
			// The interrupt has started: wait for it, so that it cannot
			// land after ClearInterrupt and hit the VM's next user.
			<-interrupted
		}
	}
	v.r.ClearInterrupt()
	reuse = true
	if runErr != nil {
		return nil, p.mapError(ctx, v, runErr)
	}
	return p.outs(v, ret)
}

func (p *program) run(v *vm, args []any) (goja.Value, error) {
	fnVal, err := v.r.RunProgram(p.prog)
	if err != nil {
		return nil, err
	}
	fn, ok := goja.AssertFunction(fnVal)
	if !ok {
		return nil, procs.InternalErrorAt(p.name, "wrapper is not a function")
	}
	callArgs := make([]goja.Value, 1+len(args))
	callArgs[0] = v.session
	for i, a := range args {
		if p.params[i].Mode == procs.ModeOut {
			a = nil // OUT parameters start as NULL whatever the caller passed
		}
		callArgs[i+1] = v.toJS(a)
	}
	return fn(goja.Undefined(), callArgs...)
}

func (p *program) outs(v *vm, ret goja.Value) ([]any, error) {
	outs := make([]any, len(p.params))
	arr := ret.ToObject(v.r)
	for i, prm := range p.params {
		if prm.Mode == procs.ModeIn {
			continue
		}
		val, ok := fromJS(arr.Get(strconv.Itoa(i)))
		if !ok {
			return nil, procs.ScriptErrorAt(p.src, 0, "OUT parameter "+prm.Name+" holds an object, not a SQL value")
		}
		outs[i] = val
	}
	return outs, nil
}

// mapError turns what the VM returned into the error Call reports: a
// value the script threw itself keeps its message exactly, with the place
// in Where; a runtime error (TypeError, ReferenceError, ...) or an uncaught
// SQL error says where in its message.
func (p *program) mapError(ctx context.Context, v *vm, err error) error {
	if ctx.Err() != nil {
		return procs.InterruptedAt(p.src, 0, ctx.Err())
	}
	var ie *goja.InterruptedError
	if errors.As(err, &ie) {
		if e, ok := ie.Value().(error); ok {
			if se, ok := sqlerr.As(e); ok {
				return procs.SQLErrorAt(p.src, 0, se) // the memory budget's 3170
			}
		}
	}
	if e, ok := sqlerr.As(err); ok {
		return e
	}
	var ex *goja.Exception
	if !errors.As(err, &ex) {
		return procs.ScriptErrorAt(p.src, 0, err.Error())
	}
	line := p.lineOf(ex)
	val := ex.Value()
	obj, isObj := val.(*goja.Object)
	if isObj {
		if se := v.hostErrors[obj]; se != nil {
			return procs.SQLErrorAt(p.src, line, se)
		}
		if se, ok := sqlErrorFromObject(obj); ok {
			return procs.RaisedAt(p.src, line, se)
		}
		if runtimeErrors[obj.ClassName()] || runtimeErrors[obj.Get("name").String()] {
			return procs.ScriptErrorAt(p.src, line, val.String())
		}
		if obj.ClassName() == "Error" {
			return procs.ThrownAt(p.src, line, obj.Get("message").String())
		}
	}
	if val == nil {
		return procs.ScriptErrorAt(p.src, line, "exception")
	}
	return procs.ThrownAt(p.src, line, val.String())
}

// runtimeErrors are the error classes the engine throws by itself; a
// thrown Error or any other value is the script's own.
var runtimeErrors = map[string]bool{
	"TypeError": true, "ReferenceError": true, "RangeError": true, "SyntaxError": true,
	"EvalError": true, "URIError": true,
}

// lineOf is the body line of the innermost script frame of ex.
func (p *program) lineOf(ex *goja.Exception) int {
	for _, f := range ex.Stack() {
		if f.SrcName() == p.name {
			if pos := f.Position(); pos.Line > 0 {
				return pos.Line
			}
		}
	}
	return 0
}
