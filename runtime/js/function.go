package js

import (
	"context"

	"github.com/plrun/plrun/procs"
)

// resultVar is the wrapper parameter a stored function's body leaves its
// value in.
const resultVar = "plrun_function_result__"

// CompileFunction compiles a stored function's body: a JavaScript
// function of the parameters (by name) whose return value is the result
// (MySQL 9's CREATE FUNCTION ... LANGUAGE JAVASCRIPT). The wrapper is on the
// body's first line, so line numbers in errors are the body's.
func (rt *Runtime) CompileFunction(def *procs.Definition) (procs.FunctionProgram, error) {
	d := *def
	d.Params = append(append([]procs.Param(nil), def.Params...), procs.Param{Mode: procs.ModeOut, Name: resultVar, Type: "JSON"})
	d.Body = resultVar + " = (function() {" + def.Body + "\n})();"
	prog, err := rt.Compile(&d)
	if err != nil {
		return nil, err
	}
	return &function{prog: prog.(*program)}, nil
}

// function is a compiled stored function: a procedure program with one
// OUT parameter more.
type function struct{ prog *program }

func (f *function) Eval(ctx context.Context, host procs.Host, args []any) (any, error) {
	all := make([]any, len(args)+1)
	copy(all, args)
	outs, err := f.prog.Call(ctx, host, all)
	if err != nil {
		return nil, err
	}
	return outs[len(outs)-1], nil
}
