package lua

import (
	"context"

	glua "github.com/yuin/gopher-lua"

	"github.com/plrun/plrun/membudget"
	"github.com/plrun/plrun/procs"
)

// vm is one pooled LState with the session object already installed. host
// and ctx are set for the duration of one Call.
type vm struct {
	L       *glua.LState
	envMeta *glua.LTable // {__index = globals}: metatable of each call's environment
	session *glua.LTable
	null    *glua.LUserData // session.NULL

	stmtMeta   *glua.LTable
	resultMeta *glua.LTable
	errMeta    *glua.LTable

	host procs.Host
	ctx  context.Context
	// raised is the message of the last string the script passed to
	// error(), so that Call tells it from a runtime error: its message is
	// kept as raised.
	raised *string

	// Stored functions (function.go): each one's closure on this VM, the
	// environment they share, and the context calls reuse.
	functions   map[*function]*glua.LFunction
	functionEnv *glua.LTable
	fnParent    context.Context
	fnCtx       context.Context
	fnCancel    context.CancelCauseFunc
	fnWatch     membudget.LazyWatch
	cancelCall  func(error) // cancels fnCtx: what fnWatch calls past the budget
}

func newVM() *vm {
	L := glua.NewState(glua.Options{SkipOpenLibs: true})
	for _, lib := range []struct {
		name string
		open glua.LGFunction
	}{
		{glua.BaseLibName, glua.OpenBase},
		{glua.TabLibName, glua.OpenTable},
		{glua.StringLibName, glua.OpenString},
		{glua.MathLibName, glua.OpenMath},
		{glua.CoroutineLibName, glua.OpenCoroutine},
	} {
		L.Push(L.NewFunction(lib.open))
		L.Push(glua.LString(lib.name))
		L.Call(1, 0)
	}
	v := &vm{L: L}
	v.installBudgetedStrings()
	v.sandbox()
	v.envMeta = L.NewTable()
	v.envMeta.RawSetString("__index", L.G.Global)
	v.envMeta.RawSetString("__metatable", glua.LString("protected"))
	v.installSession()
	v.installError()
	return v
}

// installError wraps the base library's error so that the string a script
// raises is remembered (see vm.raised).
func (v *vm) installError() {
	g := v.L.G.Global
	raise := g.RawGetString("error").(*glua.LFunction).GFunction
	g.RawSetString("error", v.L.NewFunction(func(L *glua.LState) int {
		if s, ok := L.Get(1).(glua.LString); ok {
			msg := string(s)
			v.raised = &msg
		}
		return raise(L)
	}))
}

// sandbox removes what reaches outside the VM and leaves stand-ins that
// say so, instead of "attempt to index a nil value".
func (v *vm) sandbox() {
	L := v.L
	g := L.G.Global
	for _, name := range []string{"dofile", "loadfile", "load", "loadstring", "require", "module", "_printregs",
		"getfenv", "setfenv"} {
		name := name
		g.RawSetString(name, L.NewFunction(func(L *glua.LState) int {
			L.RaiseError("%s is not available in procedures", name)
			return 0
		}))
	}
	for _, lib := range []string{"os", "io", "package", "debug"} {
		lib := lib
		stub := L.NewTable()
		meta := L.NewTable()
		meta.RawSetString("__index", L.NewFunction(func(L *glua.LState) int {
			L.RaiseError("%s.%s is not available in procedures", lib, L.ToString(2))
			return 0
		}))
		meta.RawSetString("__newindex", meta.RawGetString("__index"))
		stub.Metatable = meta
		g.RawSetString(lib, stub)
	}
	v.protectLibraries()
}

// protectLibraries makes the shared library tables read-only, so that a
// script cannot change what the next call on this pooled LState sees:
// each library global becomes an empty proxy whose __index is the real
// table, whose __newindex raises, and whose metatable is protected; rawset
// refuses the proxies; getmetatable("") no longer hands out the string
// library. (pairs(string) is therefore empty.)
func (v *vm) protectLibraries() {
	L := v.L
	g := L.G.Global
	proxies := map[*glua.LTable]bool{}
	for _, lib := range []string{glua.StringLibName, glua.TabLibName, glua.MathLibName, glua.CoroutineLibName} {
		lib := lib
		real, ok := g.RawGetString(lib).(*glua.LTable)
		if !ok {
			continue
		}
		proxy := L.NewTable()
		meta := L.NewTable()
		meta.RawSetString("__index", real)
		meta.RawSetString("__newindex", L.NewFunction(func(L *glua.LState) int {
			L.RaiseError("attempt to modify read-only library table %s", lib)
			return 0
		}))
		meta.RawSetString("__metatable", glua.LString("protected"))
		proxy.Metatable = meta
		proxies[proxy] = true
		g.RawSetString(lib, proxy)
	}
	// gopher-lua's string metatable is the string library itself (with
	// __index pointing to itself); give strings a metatable of their own.
	if real, ok := L.GetMetatable(glua.LString("")).(*glua.LTable); ok {
		real.RawSetString("__index", glua.LNil)
		strMeta := L.NewTable()
		strMeta.RawSetString("__index", real)
		strMeta.RawSetString("__metatable", glua.LString("protected"))
		L.SetMetatable(glua.LString(""), strMeta)
	}
	rawset := g.RawGetString("rawset").(*glua.LFunction).GFunction
	g.RawSetString("rawset", L.NewFunction(func(L *glua.LState) int {
		if t, ok := L.Get(1).(*glua.LTable); ok && proxies[t] {
			L.RaiseError("attempt to modify read-only library table")
		}
		return rawset(L)
	}))
}

// endCall forgets what one call (a procedure's or a function's) left on
// the VM before it goes back to the pool: its host, its context and the
// message it raised last.
func (v *vm) endCall() { v.host, v.ctx, v.raised = nil, nil, nil }
