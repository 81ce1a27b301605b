package js

import (
	"context"
	"math/big"
	"strconv"
	"sync"

	"github.com/dop251/goja"

	"github.com/plrun/plrun/membudget"
	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sqlerr"
)

// vm is one pooled goja Runtime with the session object already built.
// host and ctx are set for the duration of one Call.
type vm struct {
	r         *goja.Runtime
	session   *goja.Object
	errorCtor goja.Value

	stmtProto   *goja.Object
	resultProto *goja.Object
	stmts       map[*goja.Object]*statement // this call's statements
	results     map[*goja.Object]*result    // this call's results
	// hostErrors are the errors this call's SQL statements threw, told
	// apart from {code, sqlState, message} objects the script throws.
	hostErrors map[*goja.Object]*sqlerr.Error

	host procs.Host
	ctx  context.Context

	// Stored functions (function.go): each one's function value on this
	// VM, and the argument slice calls reuse.
	functions     map[*function]goja.Callable
	fnArgs        []goja.Value
	fnWatch       membudget.LazyWatch
	interruptCall func(error) // what fnWatch calls past the budget
	// interruptOn's registration: the ctx it is for, and who runs now.
	fnAfter     context.Context
	fnAfterStop func() bool
	fnMu        sync.Mutex
	fnRunning   context.Context
}

// maxCallStack bounds recursion so a runaway script gets a RangeError.
const maxCallStack = 4096

func newVM() *vm {
	r := goja.New()
	r.SetMaxCallStackSize(maxCallStack)
	v := &vm{r: r, errorCtor: r.Get("Error")}
	v.stmts = map[*goja.Object]*statement{}
	v.results = map[*goja.Object]*result{}
	v.hostErrors = map[*goja.Object]*sqlerr.Error{}
	v.buildPrototypes()
	v.wrapBuiltins()
	v.session = r.NewObject()
	s := v.session
	must(s.Set("runSql", v.runSQL))
	must(s.Set("sql", v.newStatement))
	must(s.Set("prepare", v.newStatement))
	must(s.Set("startTransaction", v.txnCall(func() error { return v.host.StartTransaction(v.ctx) })))
	must(s.Set("commit", v.commit))
	must(s.Set("rollback", v.txnCall(func() error { return v.host.Rollback(v.ctx) })))
	must(s.Set("setSavepoint", v.savepointCall(procs.Host.Savepoint)))
	must(s.Set("rollbackTo", v.savepointCall(procs.Host.RollbackToSavepoint)))
	must(s.Set("releaseSavepoint", v.savepointCall(procs.Host.ReleaseSavepoint)))
	must(s.Set("emit", v.emit))
	console := r.NewObject()
	for _, name := range []string{"log", "info", "warn", "error", "debug"} {
		must(console.Set(name, v.consoleLog))
	}
	must(r.Set("console", console))
	must(r.Set(concatGlobal, v.concat))
	freeze := r.Get("Object").ToObject(r).Get("freeze")
	freezeFn, _ := goja.AssertFunction(freeze)
	for _, o := range []*goja.Object{s, v.stmtProto, v.resultProto} {
		if _, err := freezeFn(goja.Undefined(), o); err != nil {
			panic(err)
		}
	}
	if _, err := r.RunProgram(freezeGlobals); err != nil {
		panic(err)
	}
	return v
}

// freezeGlobals deep-freezes the global object and every builtin reachable
// from it, so that a script cannot change what the next call on this
// pooled VM sees (globalThis.x = 1 and Array.prototype.push = null throw).
var freezeGlobals = goja.MustCompile("freeze-globals", `(function () {
	"use strict";
	const seen = new Set();
	function deepFreeze(o) {
		if (o === null || o === undefined || (typeof o !== "object" && typeof o !== "function") || seen.has(o)) {
			return;
		}
		seen.add(o);
		Object.freeze(o);
		for (const k of Reflect.ownKeys(o)) {
			const d = Object.getOwnPropertyDescriptor(o, k);
			if (d === undefined) {
				continue;
			}
			if ("value" in d) {
				deepFreeze(d.value);
			} else {
				deepFreeze(d.get);
				deepFreeze(d.set);
			}
		}
		deepFreeze(Object.getPrototypeOf(o));
	}
	deepFreeze(globalThis);
})()`, true)

// must panics on errors that only a broken invariant can cause (setting a
// property of a fresh plain object).
func must(err error) {
	if err != nil {
		panic(err)
	}
}

// throw raises err in the script as an Error with code, sqlState, message.
func (v *vm) throw(err error) {
	e, ok := sqlerr.As(err)
	if !ok {
		e = sqlerr.Wrap(err, sqlerr.ErUnknown, "%s", err.Error())
	}
	obj, cerr := v.r.New(v.errorCtor, v.r.ToValue(e.Message))
	if cerr != nil {
		panic(v.r.ToValue(e.Message))
	}
	must(obj.Set("code", int64(e.Code)))
	must(obj.Set("sqlState", e.State))
	v.hostErrors[obj] = e
	panic(obj)
}

// sqlErrorFromObject reads {code, sqlState, message} of a thrown object.
func sqlErrorFromObject(obj *goja.Object) (*sqlerr.Error, bool) {
	code, state, msg := obj.Get("code"), obj.Get("sqlState"), obj.Get("message")
	if code == nil || state == nil || msg == nil {
		return nil, false
	}
	n, ok := code.Export().(int64)
	s, ok2 := state.Export().(string)
	m, ok3 := msg.Export().(string)
	if !ok || !ok2 || !ok3 || n < 1 || n > 65535 || len(s) != 5 {
		return nil, false
	}
	return &sqlerr.Error{Code: uint16(n), State: s, Message: m}, true
}

const maxExact = 1 << 53

// toJS converts a Host value to JavaScript: integers beyond 2^53 are BigInt.
func (v *vm) toJS(val any) goja.Value {
	switch x := val.(type) {
	case nil:
		return goja.Null()
	case int64:
		if x < -maxExact || x > maxExact {
			return v.r.ToValue(big.NewInt(x))
		}
		return v.r.ToValue(x)
	case uint64:
		if x > maxExact {
			return v.r.ToValue(new(big.Int).SetUint64(x))
		}
		return v.r.ToValue(int64(x))
	case []byte:
		return v.r.ToValue(string(x))
	}
	return v.r.ToValue(val)
}

// fromJS converts a script value to a Host value; ok is false for objects.
func fromJS(val goja.Value) (any, bool) {
	if val == nil || goja.IsUndefined(val) || goja.IsNull(val) {
		return nil, true
	}
	switch x := val.Export().(type) {
	case int64, float64, string, bool:
		return x, true
	case *big.Int:
		if x.IsInt64() {
			return x.Int64(), true
		}
		if x.IsUint64() {
			return x.Uint64(), true
		}
		return x.String(), true
	}
	return nil, false
}

// sqlArgs reads placeholder values: one array argument, or the arguments.
func (v *vm) sqlArgs(args []goja.Value) []any {
	if len(args) == 1 {
		if obj, ok := args[0].(*goja.Object); ok && obj.ClassName() == "Array" {
			n := int(obj.Get("length").ToInteger())
			out := make([]any, n)
			for i := 0; i < n; i++ {
				out[i] = v.sqlValue(obj.Get(strconv.Itoa(i)), i+1)
			}
			return out
		}
	}
	out := make([]any, len(args))
	for i, a := range args {
		out[i] = v.sqlValue(a, i+1)
	}
	return out
}

func (v *vm) sqlValue(val goja.Value, n int) any {
	x, ok := fromJS(val)
	if !ok {
		panic(v.r.NewTypeError("parameter %d: an object cannot be bound to a SQL placeholder", n))
	}
	return x
}

// endCall forgets what one call (a procedure's or a function's) left on
// the VM before it goes back to the pool: its host and context, its
// prepared statements and results, and the errors its statements threw.
func (v *vm) endCall() {
	v.host, v.ctx = nil, nil
	clear(v.stmts)
	clear(v.results)
	clear(v.hostErrors)
}
