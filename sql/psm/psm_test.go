package psm

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// fakeHost records what the program asks of the session and answers
// Exec from a table; it lends no Env, so every expression takes the
// SELECT path through Exec.
type fakeHost struct {
	calls      []string
	results    map[string]*procs.Result
	emitted    []*procs.Result
	refuseSets bool
}

func (h *fakeHost) Exec(_ context.Context, sql string, args []any) (*procs.Result, error) {
	h.calls = append(h.calls, fmt.Sprintf("exec %s %v", sql, args))
	if r, ok := h.results[sql]; ok {
		return r, nil
	}
	if strings.HasPrefix(sql, "SELECT ? ") || sql == "SELECT ?" {
		return &procs.Result{Columns: []string{"x"}, Rows: [][]any{{args[0]}}}, nil
	}
	return &procs.Result{AffectedRows: 1}, nil
}
func (h *fakeHost) StartTransaction(context.Context) error {
	h.calls = append(h.calls, "start")
	return nil
}
func (h *fakeHost) Commit(_ context.Context, w procs.CommitWait) error {
	h.calls = append(h.calls, fmt.Sprintf("commit %d", w))
	return nil
}
func (h *fakeHost) Rollback(context.Context) error { h.calls = append(h.calls, "rollback"); return nil }
func (h *fakeHost) Savepoint(_ context.Context, n string) error {
	h.calls = append(h.calls, "savepoint "+n)
	return nil
}
func (h *fakeHost) RollbackToSavepoint(_ context.Context, n string) error {
	h.calls = append(h.calls, "rollback to "+n)
	return nil
}
func (h *fakeHost) ReleaseSavepoint(_ context.Context, n string) error {
	h.calls = append(h.calls, "release "+n)
	return nil
}

func (h *fakeHost) Emit(_ context.Context, res *procs.Result) error {
	if h.refuseSets {
		return sqlerr.New(sqlerr.ErSPBadSelect, "PROCEDURE p can't return a result set in the given context")
	}
	h.emitted = append(h.emitted, res)
	return nil
}
func (h *fakeHost) Note(context.Context, string) error { return nil }

func compileBody(t *testing.T, body string, params ...procs.Param) procs.Program {
	t.Helper()
	p, err := Runtime{}.Compile(&procs.Definition{Name: "p", Body: body, Params: params})
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	return p
}

// Statements reach the host with the locals they name as ? placeholders,
// the text restored once at compile time; transactions go to the host's
// methods with the session's commit wait.
func TestStatementsBindLocals(t *testing.T) {
	p := compileBody(t, "BEGIN DECLARE k INT DEFAULT 7; START TRANSACTION; INSERT INTO t (a, b) VALUES (k, a + 1); SAVEPOINT s; ROLLBACK TO s; COMMIT; END",
		procs.Param{Name: "a", Type: "INT"})
	h := &fakeHost{results: map[string]*procs.Result{"SELECT 7": {Columns: []string{"7"}, Rows: [][]any{{int64(7)}}}}}
	if _, err := p.Call(context.Background(), h, []any{int64(3)}); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(h.calls, "\n")
	want := strings.Join([]string{
		"exec SELECT 7 []", // DEFAULT without an Env: the SELECT path
		"start",
		"exec INSERT INTO `t` (`a`,`b`) VALUES (?,?+1) [7 3]",
		"savepoint s", "rollback to s", "commit 0",
	}, "\n")
	if got != want {
		t.Errorf("host calls:\n%s\nwant:\n%s", got, want)
	}
}

// A SELECT without INTO is a result set sent through Emit; where the
// caller takes none the host's 1312 fails the statement, and a handler
// may take it as in MySQL. Never rows dropped silently.
func TestSelectEmits(t *testing.T) {
	rows := &procs.Result{Columns: []string{"a"}, Rows: [][]any{{int64(1)}}}
	p := compileBody(t, "BEGIN SELECT a FROM t; END")
	h := &fakeHost{results: map[string]*procs.Result{"SELECT a FROM t": rows}}
	if _, err := p.Call(context.Background(), h, nil); err != nil || len(h.emitted) != 1 || h.emitted[0] != rows {
		t.Fatalf("err = %v, emitted %v", err, h.emitted)
	}
	h = &fakeHost{results: map[string]*procs.Result{"SELECT a FROM t": rows}, refuseSets: true}
	if _, err := p.Call(context.Background(), h, nil); err == nil || !strings.Contains(err.Error(), "1312") {
		t.Fatalf("caller takes no sets: err = %v, want 1312", err)
	}
	h.results["SELECT 1"] = &procs.Result{Columns: []string{"1"}, Rows: [][]any{{int64(1)}}}
	p = compileBody(t, "BEGIN DECLARE CONTINUE HANDLER FOR 1312 SET @x = 1; SELECT a FROM t; END")
	if _, err := p.Call(context.Background(), h, nil); err != nil {
		t.Fatalf("a handler for 1312: err = %v", err)
	}
}

// CompileFunction's body returns a value; a body that ends without
// RETURN is 1321, and RETURN in a procedure is 1313 at compile time.
func TestFunctionReturn(t *testing.T) {
	f, err := CompileFunction(&procs.Definition{Name: "f", Params: []procs.Param{{Name: "x", Type: "INT"}},
		Body: "BEGIN IF x > 0 THEN RETURN x * 2; END IF; END"})
	if err != nil {
		t.Fatal(err)
	}
	h := &fakeHost{results: map[string]*procs.Result{
		"SELECT ?>0": {Columns: []string{"c"}, Rows: [][]any{{int64(1)}}},
		"SELECT ?*2": {Columns: []string{"c"}, Rows: [][]any{{int64(42)}}},
	}}
	v, err := f.Call(context.Background(), h, []any{int64(21)})
	if err != nil || v != types.IntValue(42) {
		t.Fatalf("f(21) = %v, %v; host calls %v", v, err, h.calls)
	}
	h.results["SELECT ?>0"] = &procs.Result{Columns: []string{"c"}, Rows: [][]any{{int64(0)}}}
	if _, err := f.Call(context.Background(), h, []any{int64(-1)}); err == nil || !strings.Contains(err.Error(), "1321") {
		t.Fatalf("f(-1): err = %v, want 1321", err)
	}
	_, err = Runtime{}.Compile(&procs.Definition{Name: "p", Body: "BEGIN RETURN 1; END"})
	if e, ok := sqlerr.As(err); !ok || e.Code != 1313 {
		t.Fatalf("RETURN in a procedure: %v, want 1313", err)
	}
}

// A cancelled context stops a loop that never ends.
func TestLoopStopsOnCancel(t *testing.T) {
	p := compileBody(t, "l: LOOP INSERT INTO t VALUES (1); END LOOP l")
	ctx, cancel := context.WithCancelCause(context.Background())
	h := &cancelHost{cancel: cancel}
	_, err := p.Call(ctx, h, nil)
	if !errors.Is(err, errKilled) {
		t.Fatalf("err = %v, want the context's cause", err)
	}
	if h.execs != 5 {
		t.Fatalf("%d statements ran after the cancel at the 5th", h.execs)
	}
}

var errKilled = errors.New("killed")

type cancelHost struct {
	fakeHost
	cancel context.CancelCauseFunc
	execs  int
}

func (h *cancelHost) Exec(ctx context.Context, sql string, args []any) (*procs.Result, error) {
	h.execs++
	if h.execs == 5 {
		h.cancel(errKilled)
	}
	return &procs.Result{AffectedRows: 1}, nil
}

// Compile errors name the line of the CREATE statement: BodyLine is where
// the body starts.
func TestCompileErrorLine(t *testing.T) {
	_, err := Runtime{}.Compile(&procs.Definition{Name: "p", BodyLine: 3, Body: "BEGIN\n  SET @a = 1;\n  SET @a = ;\nEND"})
	if err == nil || !strings.Contains(err.Error(), "at line 5") || !strings.Contains(err.Error(), "near ';") {
		t.Fatalf("err = %v, want 1064 near ';' at line 5", err)
	}
	_, err = Runtime{}.Compile(&procs.Definition{Name: "p", File: "procs/p.sql", FirstLine: 1, BodyLine: 2, Body: "BEGIN\n  SET @a = ;\nEND"})
	if err == nil || !strings.HasPrefix(err.(*sqlerr.Error).Message, "procs/p.sql: ") || !strings.Contains(err.Error(), "at line 3") {
		t.Fatalf("file-loaded: err = %v, want the file and its line 3", err)
	}
}
