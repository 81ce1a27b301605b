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
		// Backtracking patterns: the matcher runs in Go, between two VM
		// instructions, for as long as the pattern takes (hours here).
		"pattern_find":   "string.find(string.rep('a', 100000), string.rep('a-', 30) .. 'b')",
		"pattern_match":  "local s = string.rep('a', 100000)\ns:match(string.rep('a-', 30) .. 'b')",
		"pattern_gmatch": "for w in string.gmatch(string.rep('a', 100000), string.rep('a-', 30) .. 'b') do end",
		"pattern_gsub":   "string.gsub(string.rep('a', 100000), string.rep('a-', 30) .. 'b', 'x')",
	})
}

// TestMemoryBudget: strings a script builds are checked against the
// CALL's memory budget before they are allocated.
func TestMemoryBudget(t *testing.T) {
	rttest.RunBudget(t, lua.New(lua.Options{PoolSize: 1}), map[string]string{
		"rep":          "local s = string.rep('x', 2^40)",
		"rep_method":   "local s = ('xy'):rep(2^39)",
		"concat_twice": "local s = 'x'\nfor i = 1, 60 do s = s .. s end",
		"concat_chain": "local s = string.rep('x', 1000)\nfor i = 1, 20 do s = s .. '-' .. s .. s end",
		"table_join":   "local t = {}\nfor i = 1, 2000 do t[i] = string.rep('y', 1000) end\nlocal s = table.concat(t, ',')",
		"format":       "local s = string.rep('x', 600000)\ns = string.format('%s%s', s, s)",
		"format_width": "local s = string.format(string.rep('%999999s', 4), 'a', 'b', 'c', 'd')",
		"gsub_grows":   "local s = string.rep('x', 100000)\ns = s:gsub('x', 'yyyyyyyyyyyyyyyyyyyy')",
		"gsub_capture": "local s = string.rep('ab', 100000)\ns = s:gsub('(a)(b)', '%0%0%1%2%0%0')",
		// Grown one element at a time: caught by the heap watch.
		"table_growth":  "local t = {}\nlocal i = 0\nwhile true do i = i + 1\nt[i] = i end",
		"table_strings": "local t = {}\nlocal s = string.rep('x', 100000)\nlocal i = 0\nwhile true do i = i + 1\nt[i] = s .. i end",
	})
}

// TestBudgetedStringsBehave: the budgeted string functions answer as
// gopher-lua's own do.
func TestBudgetedStringsBehave(t *testing.T) {
	prog := rttest.Compile(t, lua.New(lua.Options{}), "strs", "OUT s VARCHAR(400)", `
local parts = {}
local function add(...) for i = 1, select('#', ...) do parts[#parts + 1] = tostring((select(i, ...))) end end
add(string.find('hello world', 'o w'))
add(string.find('hello world', '(o)(r)'))
add(string.find('hello', 'l', 1, true))
add(string.find('hello', 'z'))
add(string.find('a.b', '.', 2, true))
add(string.match('key=val', '(%w+)=(%w+)'))
add(string.match('hello', 'l+'))
add(('abc'):match('()b()'))
for k, v in string.gmatch('a=1, b=2', '(%w+)=(%w+)') do add(k, v) end
for w in ('one two'):gmatch('%a+') do add(w) end
add(string.gsub('hello world', 'o', '0'))
add(string.gsub('hello world', '(o)', '[%1]', 1))
add(string.gsub('abc', '%w', '%0%0'))
add(string.gsub('$name is $age', '%$(%w+)', {name = 'bob', age = 7}))
add(string.gsub('abc', '.', function(c) if c == 'b' then return nil end return c:upper() end))
add(string.gsub('50%', '%%', ' percent'))
add(string.rep('ab', 3), string.rep('x', 0), string.rep('x', -1))
add(table.concat({1, 'a', 2.5}, '-'), table.concat({'a', 'b', 'c'}, '', 2, 3))
add(string.format('%5.2f|%s|%q|%d', 3.14159, 'x', 'a"b', 42))
add(1 .. 2, 'a' .. 1.5 .. 'b')
local mt = {__concat = function(a, b) return 'M' end}
add(setmetatable({}, mt) .. 'x', 'x' .. setmetatable({}, mt))
local function two() return 'p', 'q' end
add('<' .. two() .. '>')
s = table.concat(parts, ',')`)
	outs, err := prog.Call(context.Background(), &rttest.FakeHost{}, []any{nil})
	if err != nil {
		t.Fatal(err)
	}
	want := "5,7,8,9,o,r,3,3,nil,2,2,key,val,ll,2,3,a,1,b,2,one,two,hell0 w0rld,2,hell[o] world,1,aabbcc,3,bob is 7,2,AbC,3,50 percent,1,ababab,,,1-a-2.5,bc, 3.14|x|\"a\\\"b\"|42,12,a1.5b,M,M,<p>"
	if outs[0] != want {
		t.Errorf("got  %v\nwant %v", outs[0], want)
	}
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

// TestPrintFormat: print's arguments go through tostring, tab-separated,
// as Lua's own print writes them.
func TestPrintFormat(t *testing.T) {
	prog := rttest.Compile(t, lua.New(lua.Options{}), "printer", "", "print('n =', 1, 2.5, nil, true, session.NULL ~= nil)")
	h := &rttest.FakeHost{}
	if _, err := prog.Call(context.Background(), h, nil); err != nil {
		t.Fatal(err)
	}
	if want := []string{"note n =\t1\t2.5\tnil\ttrue\ttrue"}; strings.Join(h.Calls, "|") != strings.Join(want, "|") {
		t.Fatalf("host calls %q, want %q", h.Calls, want)
	}
}
