package sql_test

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/plrun/plrun/engine"
	"github.com/plrun/plrun/runtime/builtin"
	"github.com/plrun/plrun/sql/exec"

	"github.com/plrun/plrun/sql"
	"github.com/plrun/plrun/sqlerr"
)

// newHostileSession opens an engine in a temporary folder with one session.
func newHostileSession(t testing.TB) (*engine.Engine, *sql.Session) {
	t.Helper()
	e, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	s := e.NewSession()
	t.Cleanup(func() {
		s.Close()
		_ = e.Close()
	})
	return e, s
}

func mustExec(t testing.TB, s *sql.Session, q string) *exec.Result {
	t.Helper()
	r, err := s.Exec(context.Background(), q, nil)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return r
}

// bytesAllocated is what f allocates on the heap.
func bytesAllocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// sumOfOnes is SELECT 1+1+...+1 with n terms.
func sumOfOnes(n int) string { return "SELECT " + strings.Repeat("1+", n-1) + "1" }

// TestLongExpressionIsLinear: compiling and running SELECT 1+...+1 costs
// memory in proportion to its length. It used to render every operator's
// subtree as text while compiling: doubling the terms quadrupled the
// bytes (40,000 terms took minutes and 5.5 GB). Bytes, not time, so the
// test does not depend on the machine's load.
func TestLongExpressionIsLinear(t *testing.T) {
	_, s := newHostileSession(t)
	cost := func(n int) uint64 {
		return bytesAllocated(func() {
			r := mustExec(t, s, sumOfOnes(n))
			if got := r.Rows[0][0].String(); got != fmt.Sprint(n) {
				t.Fatalf("%d terms: got %s", n, got)
			}
		})
	}
	cost(100) // warm up the plan cache's structures
	small, large := cost(3000), cost(12000)
	if ratio := float64(large) / float64(small); ratio > 6 {
		t.Fatalf("4x the terms cost %.1fx the bytes (%d -> %d): quadratic", ratio, small, large)
	}
	mustExec(t, s, sumOfOnes(40000))
}

func BenchmarkSumOfOnes40000(b *testing.B) {
	_, s := newHostileSession(b)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		// A different text each time: no plan-cache hit.
		mustExec(b, s, sumOfOnes(40000)+fmt.Sprintf(" + %d", i))
	}
}

// TestManyTableJoinFalseConstant: a 30-table join WHERE 1 = 0 is empty at
// once; it used to enumerate every combination (2^30 here) before
// checking the WHERE. Rows examined are counted through a constant-free
// predicate that must stay per row.
func TestManyTableJoinFalseConstant(t *testing.T) {
	_, s := newHostileSession(t)
	var from []string
	for i := 0; i < 30; i++ {
		mustExec(t, s, fmt.Sprintf("CREATE TABLE j%d (id INT PRIMARY KEY)", i))
		mustExec(t, s, fmt.Sprintf("INSERT INTO j%d VALUES (1), (2)", i))
		from = append(from, fmt.Sprintf("j%d", i))
	}
	for _, where := range []string{"1 = 0", "NULL", "j0.id = 1 AND 1 = 0", "? = 1"} {
		q := "SELECT COUNT(*) FROM " + strings.Join(from, ", ") + " WHERE " + where
		var args []any
		if strings.Contains(where, "?") {
			args = []any{0}
		}
		r, err := s.Exec(context.Background(), q, args)
		if err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		if got := r.Rows[0][0].String(); got != "0" {
			t.Fatalf("%s: COUNT(*) = %s", where, got)
		}
	}
	// Conjuncts are checked at the first table that knows their columns:
	// 27 of the 30 tables pinned to id = 1 leave 2^3 rows, found without
	// visiting the 2^30 combinations.
	var conds []string
	for i := 0; i < 27; i++ {
		conds = append(conds, fmt.Sprintf("j%d.id = 1", i))
	}
	r := mustExec(t, s, "SELECT COUNT(*) FROM "+strings.Join(from, " JOIN ")+" WHERE "+strings.Join(conds, " AND "))
	if got := r.Rows[0][0].String(); got != "8" {
		t.Fatalf("pinned join: COUNT(*) = %s, want 8", got)
	}
}

// TestInsertIDOfExplicitAutoIncrement: the OK packet's insert_id is the
// AUTO_INCREMENT value given explicitly when none is generated, as
// MariaDB reports it (pymysql's lastrowid); LAST_INSERT_ID() follows only
// generated values.
func TestInsertIDOfExplicitAutoIncrement(t *testing.T) {
	_, s := newHostileSession(t)
	mustExec(t, s, "CREATE TABLE ai (id INT PRIMARY KEY AUTO_INCREMENT, v INT)")
	for _, c := range []struct {
		q            string
		insertID     uint64
		lastInsertID string
	}{
		// MariaDB 10.11's answers, read with pymysql.
		{"INSERT INTO ai VALUES (100, 1)", 100, "0"},
		{"INSERT INTO ai (v) VALUES (2)", 101, "101"},
		{"INSERT INTO ai VALUES (50, 1)", 50, "101"},
		{"INSERT INTO ai VALUES (60, 1), (70, 1)", 70, "101"},
		{"INSERT INTO ai VALUES (NULL, 1)", 102, "102"},
		{"INSERT INTO ai VALUES (0, 1)", 103, "103"},
		{"INSERT INTO ai (v) VALUES (5), (6)", 104, "104"},
	} {
		r := mustExec(t, s, c.q)
		if r.LastInsertID != c.insertID {
			t.Errorf("%s: insert_id %d, want %d", c.q, r.LastInsertID, c.insertID)
		}
		if got := mustExec(t, s, "SELECT LAST_INSERT_ID()").Rows[0][0].String(); got != c.lastInsertID {
			t.Errorf("%s: LAST_INSERT_ID() %s, want %s", c.q, got, c.lastInsertID)
		}
	}
}

// hostileProcs are procedures that asked the process for a terabyte, or
// ran in Go where no cancellation reached, before issue 17; each must now
// fail its CALL with the MySQL error named, and leave the server serving.
var hostileProcs = []struct {
	name, lang, body string
	code             uint16
}{
	{"lua_rep", "LUA", "local s = string.rep('x', 2^40)", 3170},
	{"lua_doubling", "LUA", "local s = 'x'\nfor i = 1, 60 do s = s .. s end", 3170},
	{"lua_table_growth", "LUA", "local t = {}\nlocal i = 0\nwhile true do i = i + 1\nt[i] = i end", 3170},
	{"lua_backtrack", "LUA", "string.find(string.rep('a', 100000), string.rep('a-', 30) .. 'b')", 3024},
	{"lua_gsub_backtrack", "LUA", "string.gsub(string.rep('a', 100000), string.rep('a-', 30) .. 'b', '')", 3024},
	{"js_repeat", "JAVASCRIPT", "let s = 'x'.repeat(2 ** 40);", 3170},
	{"js_pad", "JAVASCRIPT", "let s = ''.padEnd(2 ** 40, 'ab');", 3170},
	{"js_doubling", "JAVASCRIPT", "let s = 'x'; for (let i = 0; i < 60; i++) { s += s; }", 3170},
	{"js_array_growth", "JAVASCRIPT", "let a = []; for (;;) { a.push([a.length]); }", 3170},
	{"js_loop", "JAVASCRIPT", "for (;;) {}", 3024},
}

// createHostileProcs creates hostileProcs in s's database.
func createHostileProcs(t testing.TB, s *sql.Session) {
	t.Helper()
	for _, p := range hostileProcs {
		mustExec(t, s, fmt.Sprintf("CREATE OR REPLACE PROCEDURE %s() LANGUAGE %s AS $$\n%s\n$$", p.name, p.lang, p.body))
	}
}

func errCode(err error) uint16 {
	if e, ok := sqlerr.As(err); ok {
		return e.Code
	}
	return 0
}

func TestHostileProcedures(t *testing.T) {
	_, s := newHostileSession(t)
	createHostileProcs(t, s)
	mustExec(t, s, "SET plrun_max_statement_memory = 8388608")
	for _, p := range hostileProcs {
		t.Run(p.name, func(t *testing.T) {
			// The runaways are stopped by max_execution_time; the memory
			// hogs by the budget, well before this generous one (60 s: a
			// machine loaded 10x under -race took past 10 s to grow 8 MB
			// of Lua table).
			limit := 60000
			if p.code == 3024 {
				limit = 200
			}
			mustExec(t, s, fmt.Sprintf("SET max_execution_time = %d", limit))
			_, err := s.Exec(context.Background(), "CALL "+p.name+"()", nil)
			if got := errCode(err); got != p.code {
				t.Fatalf("CALL %s: %v, want error %d", p.name, err, p.code)
			}
			if r := mustExec(t, s, "SELECT 1"); r.Rows[0][0].String() != "1" {
				t.Fatalf("after CALL %s: SELECT 1 = %v", p.name, r.Rows)
			}
		})
	}
}

// joinOf30 is a 30-table cross join of two-row tables: 2^30 rows.
func joinOf30(t testing.TB, s *sql.Session) string {
	t.Helper()
	var from []string
	for i := 0; i < 30; i++ {
		mustExec(t, s, fmt.Sprintf("CREATE TABLE IF NOT EXISTS c%d (id INT PRIMARY KEY)", i))
		mustExec(t, s, fmt.Sprintf("INSERT IGNORE INTO c%d VALUES (1), (2)", i))
		from = append(from, fmt.Sprintf("c%d", i))
	}
	return strings.Join(from, ", ")
}

// TestKillStopsRunawayStatements: KILL QUERY and max_execution_time stop
// a join that would run for hours, and the session goes on.
func TestKillStopsRunawayStatements(t *testing.T) {
	e, s := newHostileSession(t)
	from := joinOf30(t, s)
	for _, q := range []string{
		"SELECT COUNT(*) FROM " + from,
		"SELECT c0.id, COUNT(*) FROM " + from + " GROUP BY c0.id",
		"SELECT DISTINCT c0.id FROM " + from,
		"SELECT c0.id FROM " + from + " ORDER BY c1.id LIMIT 1",
		"SELECT (SELECT COUNT(*) FROM " + from + ")",
		// No row can match (the ids sum to 60 at most) and only the full
		// row can tell: every combination is tried.
		"SELECT 1 FROM c0 WHERE EXISTS (SELECT 1 FROM " + from + " WHERE " + strings.ReplaceAll(from, ",", ".id +") + ".id = 100)",
	} {
		mustExec(t, s, "SET max_execution_time = 100")
		if _, err := s.Exec(context.Background(), q, nil); errCode(err) != 3024 && errCode(err) != 3170 {
			t.Errorf("%.60s...: %v, want 3024 (or 3170)", q, err)
		}
		mustExec(t, s, "SET max_execution_time = 0")
		done := make(chan error, 1)
		go func() {
			_, err := s.Exec(context.Background(), q, nil)
			done <- err
		}()
		killed := false
		for !killed {
			select {
			case err := <-done:
				t.Fatalf("%.60s... ended before KILL QUERY: %v", q, err)
			default:
			}
			for _, p := range e.Sessions() {
				if p.ID == s.ID() && p.Info != "" {
					if err := e.Kill(s.ID(), true); err != nil {
						t.Fatal(err)
					}
					killed = true
				}
			}
			runtime.Gosched()
		}
		if err := <-done; errCode(err) != 1317 && errCode(err) != 3170 {
			t.Errorf("%.60s... after KILL QUERY: %v, want 1317", q, err)
		}
	}
	mustExec(t, s, "SELECT 1")
}

// BenchmarkKillLatency: how long a runaway statement or procedure takes
// to return after KILL QUERY (the issue asks for well under 100 ms of
// CPU); reported as ns/op, one KILL per op.
func BenchmarkKillLatency(b *testing.B) {
	e, s := newHostileSession(b)
	from := joinOf30(b, s)
	createHostileProcs(b, s)
	for _, c := range []struct{ name, q string }{
		{"join", "SELECT COUNT(*) FROM " + from},
		{"lua_pattern", "CALL lua_backtrack()"},
		{"js_loop", "CALL js_loop()"},
	} {
		b.Run(c.name, func(b *testing.B) {
			var total time.Duration
			for i := 0; i < b.N; i++ {
				done := make(chan struct{})
				go func() {
					_, _ = s.Exec(context.Background(), c.q, nil)
					close(done)
				}()
				for running := false; !running; {
					for _, p := range e.Sessions() {
						running = running || (p.ID == s.ID() && p.Info != "")
					}
					runtime.Gosched()
				}
				time.Sleep(20 * time.Millisecond) // let it get deep into its work
				start := time.Now()
				_ = e.Kill(s.ID(), true)
				<-done
				total += time.Since(start)
			}
			b.ReportMetric(float64(total.Microseconds())/float64(b.N), "us-to-stop/op")
		})
	}
}
