package rttest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plrun/plrun/membudget"
	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sqlerr"
)

// Lang selects which script of a Case a runtime runs.
type Lang int

const (
	Lua Lang = iota
	JS
)

func (l Lang) body(c *Case) string {
	if l == Lua {
		return c.Lua
	}
	return c.JS
}

// Def builds the definition of a case's procedure.
func Def(t testing.TB, name, sig, lang, body string) *procs.Definition {
	t.Helper()
	ext := map[string]string{procs.LanguageLua: ".lua", procs.LanguageJavaScript: ".js"}[lang]
	marker := map[string]string{procs.LanguageLua: "--!", procs.LanguageJavaScript: "//!"}[lang]
	def, err := procs.ParseFile(name+ext, []byte(marker+" PROCEDURE "+name+"("+sig+")\n"))
	if err != nil {
		t.Fatalf("signature %q: %v", sig, err)
	}
	def.Body = body
	def.File, def.FirstLine = "", 0 // the body is not the file's
	return def
}

// Compile compiles body or fails the test.
func Compile(t testing.TB, rt procs.Runtime, name, sig, body string) procs.Program {
	t.Helper()
	prog, err := rt.Compile(Def(t, name, sig, rt.Language(), body))
	if err != nil {
		t.Fatalf("compile %s: %v", name, err)
	}
	return prog
}

// Run runs every case of Cases on rt.
func Run(t *testing.T, rt procs.Runtime, lang Lang) {
	for i := range Cases {
		c := &Cases[i]
		t.Run(c.Name, func(t *testing.T) { runCase(t, rt, lang, c) })
	}
}

func runCase(t *testing.T, rt procs.Runtime, lang Lang, c *Case) {
	def := Def(t, "p_"+c.Name, c.Sig, rt.Language(), lang.body(c))
	prog, err := rt.Compile(def)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	host := &FakeHost{}
	if c.Host != nil {
		host = c.Host()
	}
	args := c.Args
	if args == nil {
		args = make([]any, len(def.Params))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	outs, err := prog.Call(ctx, host, args)
	if c.WantErr != nil {
		checkErr(t, def.Name, err, c.WantErr, wantMsgs(c, lang))
		return
	}
	if err != nil {
		t.Fatalf("call: %v", err)
	}
	got := make([]any, len(outs))
	for i, prm := range def.Params {
		if prm.Mode == procs.ModeIn {
			if outs[i] != nil {
				t.Errorf("IN parameter %s came back as %v", prm.Name, outs[i])
			}
			continue
		}
		if got[i], err = procs.ConvertParam(prm, outs[i]); err != nil {
			t.Fatalf("OUT %s = %#v: %v", prm.Name, outs[i], err)
		}
	}
	if c.WantOuts != nil && !(len(got) == 0 && len(c.WantOuts) == 0) && !reflect.DeepEqual(got, c.WantOuts) {
		t.Errorf("outs = %s, want %s", FormatArgs(got), FormatArgs(c.WantOuts))
	}
	if c.WantCalls != nil && !(len(host.Calls) == 0 && len(c.WantCalls) == 0) && !reflect.DeepEqual(host.Calls, c.WantCalls) {
		t.Errorf("host calls:\n  %s\nwant:\n  %s", strings.Join(host.Calls, "\n  "), strings.Join(c.WantCalls, "\n  "))
	}
	if c.Check != nil {
		if msg := c.Check(host); msg != "" {
			t.Error(msg)
		}
	}
}

func wantMsgs(c *Case, lang Lang) []string {
	msgs := append([]string(nil), c.WantMsg...)
	if lang == Lua && c.LuaMsg != "" {
		msgs = append(msgs, c.LuaMsg)
	}
	if lang == JS && c.JSMsg != "" {
		msgs = append(msgs, c.JSMsg)
	}
	return msgs
}

func checkErr(t testing.TB, proc string, err error, want *sqlerr.Error, msgs []string) {
	t.Helper()
	if err == nil {
		t.Fatalf("call succeeded, want error %d", want.Code)
	}
	e, ok := sqlerr.As(err)
	if !ok {
		t.Fatalf("error %v (%T) is not an *sqlerr.Error", err, err)
	}
	t.Logf("error: %v", e)
	if e.Code != want.Code || e.State != want.State {
		t.Errorf("error %d (%s), want %d (%s): %s", e.Code, e.State, want.Code, want.State, e.Message)
	}
	if want.Where != "" {
		// Raised by the script: the message exactly as raised, the place
		// apart.
		if len(msgs) > 0 && e.Message != msgs[0] {
			t.Errorf("message %q, want exactly %q", e.Message, msgs[0])
		}
		if w := proc + " " + want.Where; e.Where != w {
			t.Errorf("where %q, want %q", e.Where, w)
		}
		return
	}
	if e.Where != "" {
		t.Errorf("a runtime error has Where %q (its message says where)", e.Where)
	}
	if !strings.HasPrefix(e.Message, proc) {
		t.Errorf("message %q does not start with the procedure name %s", e.Message, proc)
	}
	for _, m := range msgs {
		if !strings.Contains(e.Message, m) {
			t.Errorf("message %q does not contain %q", e.Message, m)
		}
	}
}

// SyntaxCase is a body that must not compile, and the line to report.
type SyntaxCase struct {
	Name     string
	Lua, JS  string
	WantLine int
}

// SyntaxCases are compile errors with their lines.
var SyntaxCases = []SyntaxCase{
	{Name: "line3", Lua: "local a = 1\nlocal b = 2\nlocal c = = 3", JS: "let a = 1;\nlet b = 2;\nlet c = = 3;", WantLine: 3},
	{Name: "unclosed", Lua: "if true then\n  x = 1\n", JS: "if (true) {\n  x = 1;\n", WantLine: 0},
}

// RunSyntax checks that bad bodies fail in Compile with 1064 naming the
// procedure and the line.
func RunSyntax(t *testing.T, rt procs.Runtime, lang Lang) {
	for _, c := range SyntaxCases {
		t.Run(c.Name, func(t *testing.T) {
			body := c.Lua
			if lang == JS {
				body = c.JS
			}
			_, err := rt.Compile(Def(t, "bad_"+c.Name, "", rt.Language(), body))
			e, ok := sqlerr.As(err)
			if !ok || e.Code != sqlerr.ErParse {
				t.Fatalf("compile error = %v, want 1064", err)
			}
			if !strings.Contains(e.Message, "bad_"+c.Name) {
				t.Errorf("message %q does not name the procedure", e.Message)
			}
			if c.WantLine > 0 && !strings.Contains(e.Message, fmt.Sprintf("line %d:", c.WantLine)) {
				t.Errorf("message %q does not name line %d", e.Message, c.WantLine)
			}
		})
	}
}

// RunCancel checks that cancelling ctx stops an endless loop promptly, that
// the error wraps ctx.Err(), and that the VM is usable afterwards.
func RunCancel(t *testing.T, rt procs.Runtime, loops map[string]string) {
	for name, body := range loops {
		t.Run(name, func(t *testing.T) {
			prog := Compile(t, rt, "spin_"+name, "", body)
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(50*time.Millisecond, cancel)
			var cancelledAt time.Time
			done := make(chan error, 1)
			go func() {
				_, err := prog.Call(ctx, &FakeHost{}, nil)
				done <- err
			}()
			<-ctx.Done()
			cancelledAt = time.Now()
			select {
			case err := <-done:
				if took := time.Since(cancelledAt); took > time.Second {
					t.Errorf("returned %v after cancel", took)
				}
				if !errors.Is(err, context.Canceled) {
					t.Fatalf("error %v does not wrap context.Canceled", err)
				}
				if !strings.Contains(err.Error(), "spin_"+name) {
					t.Errorf("error %q does not name the procedure", err)
				}
			case <-time.After(2 * time.Second):
				t.Fatal("script still running 2s after cancel")
			}
			// Deadlines wrap DeadlineExceeded.
			dctx, dcancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
			defer dcancel()
			if _, err := prog.Call(dctx, &FakeHost{}, nil); !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("deadline error %v does not wrap DeadlineExceeded", err)
			}
		})
	}
	// The pooled VMs that were interrupted still run new calls.
	prog := Compile(t, rt, "after_cancel", "OUT b INT", map[string]string{
		procs.LanguageLua: "b = 1", procs.LanguageJavaScript: "b = 1;"}[rt.Language()])
	for i := 0; i < 4; i++ {
		outs, err := prog.Call(context.Background(), &FakeHost{}, []any{nil})
		if err != nil || !reflect.DeepEqual(outs, []any{int64(1)}) {
			t.Fatalf("call after cancel: %v %v", outs, err)
		}
	}
}

// RunConcurrent calls one Program from 8 goroutines at once.
func RunConcurrent(t *testing.T, rt procs.Runtime, lang Lang) {
	body := map[Lang]string{
		Lua: `local r = session:runSql("SELECT ?", {a})
for i = 1, 20 do session:runSql("INSERT INTO t VALUES (?)", {a * 100 + i}) end
b = a * 2`,
		JS: `let r = session.runSql("SELECT ?", [a]);
for (let i = 1; i <= 20; i++) { session.runSql("INSERT INTO t VALUES (?)", [a * 100 + i]); }
b = a * 2;`,
	}[lang]
	prog := Compile(t, rt, "concurrent", "IN a INT, OUT b INT", body)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				host := &FakeHost{NoRecord: true}
				a := int64(g*1000 + i)
				outs, err := prog.Call(context.Background(), host, []any{a, nil})
				if err != nil {
					errs <- err
					return
				}
				if outs[1] != a*2 || host.Execs != 21 || host.LastArgs[0] != a*100+20 {
					errs <- fmt.Errorf("goroutine %d call %d: outs %v execs %d last %v", g, i, outs, host.Execs, host.LastArgs)
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// Bench is BenchmarkCall's body: a procedure doing 10 host calls.
func Bench(b *testing.B, rt procs.Runtime, lang Lang) {
	body := map[Lang]string{
		Lua: `for i = 1, 9 do session:runSql("UPDATE t SET k = k + 1 WHERE id = ?", {id}) end
b = session:runSql("SELECT a, b FROM t"):fetchOne().a`,
		JS: `for (let i = 1; i <= 9; i++) { session.runSql("UPDATE t SET k = k + 1 WHERE id = ?", [id]); }
b = session.runSql("SELECT a, b FROM t").fetchOne().a;`,
	}[lang]
	prog := Compile(b, rt, "bench", "IN id INT, OUT b INT", body)
	host := &FakeHost{NoRecord: true, Results: map[string]*procs.Result{"SELECT a, b FROM t": twoRows}}
	ctx := context.Background()
	b.ReportAllocs()
	var mu sync.Mutex
	var lat []time.Duration
	start := time.Now()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		args := []any{int64(1), nil}
		h := &FakeHost{NoRecord: true, Results: host.Results}
		local := make([]time.Duration, 0, 1024)
		for pb.Next() {
			t0 := time.Now()
			if _, err := prog.Call(ctx, h, args); err != nil {
				b.Error(err)
				return
			}
			local = append(local, time.Since(t0))
		}
		mu.Lock()
		lat = append(lat, local...)
		mu.Unlock()
	})
	b.StopTimer()
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	q := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Nanoseconds()) }
	b.ReportMetric(float64(len(lat))/time.Since(start).Seconds(), "calls/s")
	b.ReportMetric(q(0.50), "p50-ns")
	b.ReportMetric(q(0.95), "p95-ns")
	b.ReportMetric(q(0.99), "p99-ns")
}

// RunBudget checks that each script, run under a 1 MiB memory budget (the
// CALL's plrun_max_statement_memory), fails with error 3170 instead of
// allocating past it, and that the VM is usable afterwards. Each script
// would ask for far more memory than the machine has if it were let.
func RunBudget(t *testing.T, rt procs.Runtime, scripts map[string]string) {
	for name, body := range scripts {
		t.Run(name, func(t *testing.T) {
			prog := Compile(t, rt, "hog_"+name, "", body)
			ctx := membudget.With(context.Background(), membudget.New(1<<20))
			_, err := prog.Call(ctx, &FakeHost{}, nil)
			e, ok := sqlerr.As(err)
			if !ok || e.Code != sqlerr.ErCapacityExceeded {
				t.Fatalf("error %v, want 3170", err)
			}
		})
	}
	prog := Compile(t, rt, "after_budget", "OUT b INT", map[string]string{
		procs.LanguageLua: "b = #string.rep('x', 1000)", procs.LanguageJavaScript: "b = 'x'.repeat(1000).length;"}[rt.Language()])
	outs, err := prog.Call(membudget.With(context.Background(), membudget.New(1<<20)), &FakeHost{}, []any{nil})
	if err != nil || !reflect.DeepEqual(outs, []any{int64(1000)}) {
		t.Fatalf("call after a budget error: %v %v", outs, err)
	}
}
