package js_test

import (
	"context"
	"runtime"
	"strings"
	"testing"

	"github.com/plrun/plrun/membudget"
	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/runtime/js"
	"github.com/plrun/plrun/runtime/rttest"
	"github.com/plrun/plrun/sqlerr"
)

func TestConformance(t *testing.T) { rttest.Run(t, js.New(js.Options{}), rttest.JS) }

func TestSyntaxErrors(t *testing.T) { rttest.RunSyntax(t, js.New(js.Options{}), rttest.JS) }

func TestCancel(t *testing.T) {
	rttest.RunCancel(t, js.New(js.Options{PoolSize: 1}), map[string]string{
		"tight":             "while (true) {}",
		"try_catch_swallow": "while (true) { try { for (;;) {} } catch (e) {} }",
		"host_calls":        "while (true) { session.runSql('SELECT 1'); }",
	})
}

// TestMemoryBudget: what a script builds is checked against the CALL's
// memory budget: the builtins that build one large string before they
// allocate, what grows step by step by the heap watch.
func TestMemoryBudget(t *testing.T) {
	rttest.RunBudget(t, js.New(js.Options{PoolSize: 1}), map[string]string{
		"repeat":         "let s = 'x'.repeat(2 ** 40);",
		"repeat_unicode": "let s = 'é'.repeat(2 ** 39);",
		"pad_start":      "let s = 'x'.padStart(2 ** 40);",
		"pad_end":        "let s = 'x'.padEnd(2 ** 40, 'ab');",
		"join":           "let a = []; for (let i = 0; i < 3000; i++) { a.push('y'.repeat(1000)); } let s = a.join('');",
		"join_sparse":    "let a = []; a.length = 2 ** 31; let s = a.join('xxxxxxxx');",
		"doubling":       "let s = 'x'; for (let i = 0; i < 60; i++) { s += s; }",
		"array_growth":   "let a = []; for (;;) { a.push({n: a.length}); }",
		"fill":           "let a = new Array(2 ** 32 - 1); a.fill(0);",
		"array_from":     "let a = Array.from({length: 2 ** 32 - 1});",
	})
}

// The wrapped builtins answer as goja's own, under a budget too.
func TestBudgetedBuiltinsBehave(t *testing.T) {
	prog := rttest.Compile(t, js.New(js.Options{}), "builtins", "OUT s VARCHAR(200)", `
s = [
	'ab'.repeat(3), 'x'.repeat(0), '5'.padStart(3, '0'), 'a'.padEnd(3), [1, 'b', null, 2.5].join('-'),
	[1, 2].join(), new Array(3).fill(7).join(''), Array.from('abc').join('|'), Array.from(new Set([1, 2])).length,
	Array.from({length: 2}, (_, i) => i * 2).join(','),
].join(';');`)
	ctx := membudget.With(context.Background(), membudget.New(1<<20))
	outs, err := prog.Call(ctx, &rttest.FakeHost{}, []any{nil})
	if err != nil {
		t.Fatal(err)
	}
	if want := "ababab;;005;a  ;1-b--2.5;1,2;777;a|b|c;2;0,2"; outs[0] != want {
		t.Errorf("got %v, want %v", outs[0], want)
	}
}

func TestConcurrentCalls(t *testing.T) {
	rttest.RunConcurrent(t, js.New(js.Options{PoolSize: 2}), rttest.JS)
}

// Strict mode: an undeclared assignment fails instead of creating a global
// that the next call on the pooled VM would see.
func TestStrictModeNoLeakedGlobals(t *testing.T) {
	rt := js.New(js.Options{PoolSize: 1})
	prog := rttest.Compile(t, rt, "leak", "", "leaked = true;")
	_, err := prog.Call(context.Background(), &rttest.FakeHost{}, nil)
	if e, ok := sqlerr.As(err); !ok || e.Code != sqlerr.ErSignalException || !strings.Contains(e.Message, "leaked") {
		t.Fatalf("err = %v, want 1644 naming leaked", err)
	}
}

// Builtins, the global object and the session are frozen: a script cannot
// change what the next call on the pooled VM sees.
func TestNothingLeaksBetweenCalls(t *testing.T) {
	rt := js.New(js.Options{PoolSize: 1})
	check := rttest.Compile(t, rt, "check", "OUT ok BOOL",
		"ok = typeof globalThis.leak === 'undefined' && [1].map(x => x + 1)[0] === 2 && 'x'.toUpperCase() === 'X' && typeof session.runSql === 'function';")
	for _, attack := range []string{
		"globalThis.leak = 1;",
		"Array.prototype.map = null;",
		"String.prototype.toUpperCase = function () { return 'y'; };",
		"session.runSql = null;",
		"Object.defineProperty(globalThis, 'leak', {value: 1});",
		"Object.getPrototypeOf(session.runSql('SELECT 1')).fetchOne = null;",
	} {
		bad := rttest.Compile(t, rt, "attack", "", attack)
		if _, err := bad.Call(context.Background(), &rttest.FakeHost{}, nil); err == nil {
			t.Errorf("%q succeeded", attack)
		}
		outs, err := check.Call(context.Background(), &rttest.FakeHost{}, []any{nil})
		if err != nil || outs[0] != true {
			t.Fatalf("after %q: outs %v err %v", attack, outs, err)
		}
	}
}

func TestErrorIsAnError(t *testing.T) {
	prog := rttest.Compile(t, js.New(js.Options{}), "errval", "OUT ok BOOL",
		"try { session.runSql('INSERT dup'); } catch (e) { ok = e instanceof Error && String(e) === \"Error: Duplicate entry '1' for key 'PRIMARY'\"; }")
	host := &rttest.FakeHost{Errors: map[string]error{"INSERT dup": sqlerr.New(sqlerr.ErDupEntry, "Duplicate entry '1' for key 'PRIMARY'")}}
	outs, err := prog.Call(context.Background(), host, []any{nil})
	if err != nil || outs[0] != true {
		t.Fatalf("outs %v err %v", outs, err)
	}
}

func TestParamNamesMustBeJSNames(t *testing.T) {
	rt := js.New(js.Options{})
	for _, name := range []string{"session", "a-b", "1x"} {
		def := &procs.Definition{Name: "p", Language: "JAVASCRIPT", Params: []procs.Param{{Name: name, Type: "INT"}}}
		if _, err := rt.Compile(def); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("param %q: err = %v", name, err)
		}
	}
}

func BenchmarkCall(b *testing.B) {
	b.Run("lang=js", func(b *testing.B) { rttest.Bench(b, js.New(js.Options{}), rttest.JS) })
}

// TestConsoleLogFormat: console.log's arguments are separated by spaces,
// strings as they are and objects as JSON, as a JavaScript developer
// expects.
func TestConsoleLogFormat(t *testing.T) {
	prog := rttest.Compile(t, js.New(js.Options{}), "logger", "", "console.log('n =', 1, 2.5, null, undefined, true, {a: [1, 'x']}, [2]);")
	h := &rttest.FakeHost{}
	if _, err := prog.Call(context.Background(), h, nil); err != nil {
		t.Fatal(err)
	}
	if want := []string{`note n = 1 2.5 null undefined true {"a":[1,"x"]} [2]`}; strings.Join(h.Calls, "|") != strings.Join(want, "|") {
		t.Fatalf("host calls %q, want %q", h.Calls, want)
	}
}

// TestStringBuildingStopsAtBudget: `+`, `+=`, template literals and
// String.prototype.concat are checked as they build (concat.go), so a
// doubling loop stops one step past a 1 MiB budget instead of running on
// until the heap watch's next sample: the call allocates a few MiB, not
// the hundreds it reached before (and the gigabytes four such calls did
// at once in TestHostileSoak).
func TestStringBuildingStopsAtBudget(t *testing.T) {
	rt := js.New(js.Options{PoolSize: 1})
	for name, body := range map[string]string{
		"plus":          "let s = 'x'; for (let i = 0; i < 60; i++) { s = s + s; }",
		"plus_assign":   "let s = 'x'; for (let i = 0; i < 60; i++) { s += s; }",
		"template":      "let s = 'x'; for (let i = 0; i < 60; i++) { s = `${s}${s}`; }",
		"concat_method": "let s = 'x'; for (let i = 0; i < 60; i++) { s = s.concat(s); }",
		"unicode":       "let s = 'é'; for (let i = 0; i < 60; i++) { s += s; }",
		"in_arrow":      "const grow = (s) => s + s; let s = 'x'; for (let i = 0; i < 60; i++) { s = grow(s); }",
		"in_object":     "let o = {s: 'x'}; for (let i = 0; i < 60; i++) { o.s += o.s; }",
		"in_class":      "class G { constructor() { this.s = 'x'; } grow() { this.s = this.s + this.s; } } const g = new G(); for (let i = 0; i < 60; i++) { g.grow(); }",
		"caught":        "let s = 'x'; for (let i = 0; i < 60; i++) { try { s += s; } catch (e) {} }",
	} {
		t.Run(name, func(t *testing.T) {
			prog := rttest.Compile(t, rt, "grow_"+name, "", body)
			ctx := membudget.With(context.Background(), membudget.New(1<<20))
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := prog.Call(ctx, &rttest.FakeHost{}, nil)
			runtime.ReadMemStats(&after)
			if e, ok := sqlerr.As(err); !ok || e.Code != sqlerr.ErCapacityExceeded {
				t.Fatalf("error %v, want 3170", err)
			}
			if got := after.TotalAlloc - before.TotalAlloc; got > 16<<20 {
				t.Errorf("the call allocated %d MiB under a 1 MiB budget", got>>20)
			}
		})
	}
}

// The rewritten expressions mean what they meant: `+` still adds numbers,
// converts objects, and joins strings in every kind of scope.
func TestConcatRewriteKeepsMeaning(t *testing.T) {
	prog := rttest.Compile(t, js.New(js.Options{}), "meaning", "OUT s VARCHAR(200)", `
let n = 1 + 2; n += 4;
let o = {valueOf() { return 10; }};
const f = (a, b) => a + b;
class C { static j(x) { return x + '!'; } }
let t = 'a'; t += 1; t += 2n;
s = [n, o + 1, f('x', 'y'), f(1, 2), C.j('c'), t, `+"`"+`${n}-${t}`+"`"+`, String.raw`+"`"+`a${1}b`+"`"+`, typeof (1 + 1), 'p'.concat('q', 3)].join(';');`)
	outs, err := prog.Call(context.Background(), &rttest.FakeHost{}, []any{nil})
	if err != nil {
		t.Fatal(err)
	}
	if want := "7;11;xy;3;c!;a12;7-a12;a1b;number;pq3"; outs[0] != want {
		t.Errorf("got %v, want %v", outs[0], want)
	}
}
