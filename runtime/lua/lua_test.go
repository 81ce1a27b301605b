package lua_test

import (
	"context"
	"strings"
	"testing"

	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/runtime/lua"
	"github.com/plrun/plrun/runtime/rttest"
)

func TestConformance(t *testing.T) { rttest.Run(t, lua.New(lua.Options{}), rttest.Lua) }

func TestSyntaxErrors(t *testing.T) { rttest.RunSyntax(t, lua.New(lua.Options{}), rttest.Lua) }

func TestCancel(t *testing.T) {
	rttest.RunCancel(t, lua.New(lua.Options{PoolSize: 1}), map[string]string{
		"tight":        "while true do end",
		"pcall_inside": "while true do pcall(function() local x = 1 end) end",
		"host_calls":   "while true do session:runSql('SELECT 1') end",
		"coroutine":    "local co = coroutine.wrap(function() while true do end end)\nco()",
	})
}

// Coroutines work and reach the session.
func TestCoroutines(t *testing.T) {
	prog := rttest.Compile(t, lua.New(lua.Options{}), "co", "OUT b INT",
		"local co = coroutine.wrap(function() for i = 1, 3 do coroutine.yield(session:runSql('SELECT a, b FROM t'):getAffectedItemsCount() + i) end end)\nb = co() + co() + co()")
	outs, err := prog.Call(context.Background(), &rttest.FakeHost{}, []any{nil})
	if err != nil || outs[0] != int64(9) {
		t.Fatalf("outs %v err %v", outs, err)
	}
}

func TestConcurrentCalls(t *testing.T) {
	rttest.RunConcurrent(t, lua.New(lua.Options{PoolSize: 2}), rttest.Lua)
}

// Globals a script sets live in a per-call environment, and the library
// tables are read-only: a pooled LState carries nothing into the next call.
func TestNothingLeaksBetweenCalls(t *testing.T) {
	rt := lua.New(lua.Options{PoolSize: 1})
	prog := rttest.Compile(t, rt, "leak", "OUT b INT, OUT up VARCHAR(5)",
		"if leaked or _G.leaked2 then b = 1 else b = 0 end\nleaked = true\n_G.leaked2 = true\nup = ('x'):upper() .. string.lower('')")
	for i := 0; i < 3; i++ {
		outs, err := prog.Call(context.Background(), &rttest.FakeHost{}, []any{nil, nil})
		if err != nil {
			t.Fatal(err)
		}
		if outs[0] != int64(0) || outs[1] != "X" {
			t.Fatalf("call %d: outs %v: state leaked from an earlier call", i, outs)
		}
		for _, attack := range []string{
			"string.upper = nil",
			"rawset(string, 'upper', nil)",
			"setmetatable(string, nil)",
			"getmetatable('').__index.upper = nil",
			"math.floor = nil",
			"getmetatable(_G).__index.string = nil",
			"setfenv(1, {})",
		} {
			bad := rttest.Compile(t, rt, "attack", "", attack)
			if _, err := bad.Call(context.Background(), &rttest.FakeHost{}, nil); err == nil {
				t.Errorf("%q succeeded", attack)
			}
		}
	}
}

func TestSQLErrorValueInLua(t *testing.T) {
	rt := lua.New(lua.Options{})
	prog := rttest.Compile(t, rt, "errval", "OUT s VARCHAR(100), OUT line INT",
		"local ok, e = pcall(session.runSql, 'INSERT dup')\ns = tostring(e)\nline = e.line")
	host := &rttest.FakeHost{Errors: map[string]error{"INSERT dup": errDup}}
	outs, err := prog.Call(context.Background(), host, []any{nil, nil})
	if err != nil {
		t.Fatal(err)
	}
	if outs[0] != "ERROR 1062 (23000): Duplicate entry '1' for key 'PRIMARY'" {
		t.Errorf("tostring(e) = %v", outs[0])
	}
	if outs[1] != int64(1) {
		t.Errorf("e.line = %v, want 1", outs[1])
	}
}

func TestParamNamesMustBeLuaNames(t *testing.T) {
	rt := lua.New(lua.Options{})
	for _, name := range []string{"end", "session", "a-b"} {
		def := &procs.Definition{Name: "p", Language: "LUA", Params: []procs.Param{{Name: name, Type: "INT"}}}
		if _, err := rt.Compile(def); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("param %q: err = %v", name, err)
		}
	}
}

func BenchmarkCall(b *testing.B) {
	b.Run("lang=lua", func(b *testing.B) { rttest.Bench(b, lua.New(lua.Options{}), rttest.Lua) })
}
