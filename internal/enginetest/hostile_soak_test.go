package enginetest

import (
	"context"
	gosql "database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plrun/plrun/engine"
	"github.com/plrun/plrun/runtime/builtin"

	"github.com/go-sql-driver/mysql"

	"github.com/plrun/plrun/server"
)

// hostileSoakDuration is how long TestHostileSoak runs: PLRUN_HOSTILE_SOAK
// (a Go duration, e.g. 10m), else 3 s (its short form under make test).
func hostileSoakDuration(t *testing.T) time.Duration {
	if v := os.Getenv("PLRUN_HOSTILE_SOAK"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("PLRUN_HOSTILE_SOAK=%q: %v", v, err)
		}
		return d
	}
	return 3 * time.Second
}

// soakSecret is what the hostile connections' account may never read.
const soakSecret = "SOAK-SECRET-3"

// hostileStmt is one statement of the hostile loop and the outcomes it
// may have: no error, or one of codes. 1317 (KILL QUERY from the killer
// goroutine) is always allowed.
type hostileStmt struct {
	name  string
	q     string
	codes []uint16
}

func hostileStatements(join30 string) []hostileStmt {
	stopped := []uint16{3024, 3170} // max_execution_time or the memory budget
	return []hostileStmt{
		{"offset_max", "SELECT 1 LIMIT 1 OFFSET 18446744073709551615", nil},
		{"limit_max", "SELECT 1 LIMIT 18446744073709551615, 1", nil},
		{"int_args", "SELECT SUBSTRING('abc', 18446744073709551615), REPEAT('x', 18446744073709551615), ROUND(1, 18446744073709551615), CAST(18446744073709551615 AS SIGNED)", nil},
		{"sum_40000", "SELECT " + strings.Repeat("1+", 39999) + "1", nil},
		{"join30_false", "SELECT COUNT(*) FROM " + join30 + " WHERE 1 = 0", nil},
		{"join30", "SELECT COUNT(*) FROM " + join30, stopped},
		{"join30_sort", "SELECT c0.id FROM " + join30 + " ORDER BY c1.id LIMIT 1", stopped},
		{"join30_group", "SELECT c0.id, COUNT(*) FROM " + join30 + " GROUP BY c0.id", stopped},
		{"join30_subquery", "SELECT (SELECT COUNT(*) FROM " + join30 + ")", stopped},
		{"like_many_percent", "SELECT REPEAT('a', 5000) LIKE CONCAT(REPEAT('%a', 40), 'b')", nil},
		// 3024 too: on a loaded machine a CALL may wait for a VM past
		// max_execution_time before it starts.
		{"lua_rep", "CALL lua_rep()", stopped},
		// Budget or clock, whichever comes first on a loaded machine.
		{"lua_doubling", "CALL lua_doubling()", stopped},
		{"lua_table_growth", "CALL lua_table_growth()", stopped},
		{"lua_backtrack", "CALL lua_backtrack()", []uint16{3024}},
		{"js_repeat", "CALL js_repeat()", stopped},
		{"js_doubling", "CALL js_doubling()", stopped},
		{"js_array_growth", "CALL js_array_growth()", stopped},
		// 3170 too: the heap watch is process-wide, so a procedure running
		// beside several that grow past their budgets together may be
		// stopped with them (rare: 5 of 300 in a 10-minute run).
		{"js_loop", "CALL js_loop()", stopped},
	}
}

var hostileSoakProcs = map[string]string{
	"lua_rep":          "LUA AS $$ local s = string.rep('x', 2^40) $$",
	"lua_doubling":     "LUA AS $$ local s = 'x' for i = 1, 60 do s = s .. s end $$",
	"lua_table_growth": "LUA AS $$ local t = {} local i = 0 while true do i = i + 1 t[i] = i end $$",
	"lua_backtrack":    "LUA AS $$ string.find(string.rep('a', 100000), string.rep('a-', 30) .. 'b') $$",
	"js_repeat":        "JAVASCRIPT AS $$ let s = 'x'.repeat(2 ** 40); $$",
	"js_doubling":      "JAVASCRIPT AS $$ let s = 'x'; for (let i = 0; i < 60; i++) { s += s; } $$",
	"js_array_growth":  "JAVASCRIPT AS $$ let a = []; for (;;) { a.push([a.length]); } $$",
	"js_loop":          "JAVASCRIPT AS $$ for (;;) {} $$",
}

// TestHostileSoak runs the statements and procedures of issue 17 in a
// loop through the MySQL server, with KILL QUERY fired at them at random
// and clients that give up mid-statement, beside a normal workload of
// point reads and updates. The server must stay up, every hostile
// statement must end as MySQL would have it end, the normal workload must
// never fail, and its p99 latency stays bounded (PLRUN_HOSTILE_SOAK_P99,
// default 5 s: a bound against hangs and starvation on a shared machine,
// not a performance claim; the figures are logged).
// PLRUN_HOSTILE_SOAK_ONLY=js_doubling,join30 runs only the named hostile
// statements, to find which one starves the normal workload.
func TestHostileSoak(t *testing.T) {
	duration := hostileSoakDuration(t)
	p99Bound := 5 * time.Second
	if v := os.Getenv("PLRUN_HOSTILE_SOAK_P99"); v != "" {
		var err error
		if p99Bound, err = time.ParseDuration(v); err != nil {
			t.Fatal(err)
		}
	}
	engine, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(server.Config{Engine: engine, Users: server.Users{"root": "root"}, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
		if err := <-served; err != nil {
			t.Errorf("serve: %v", err)
		}
		if err := engine.Close(); err != nil {
			t.Errorf("engine close: %v", err)
		}
	}()
	dsn := fmt.Sprintf("root:root@tcp(%s)/test?interpolateParams=false&timeout=10s&maxAllowedPacket=0", ln.Addr())
	db, err := gosql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(64)
	ctx := context.Background()
	setup := []string{"CREATE TABLE sb (id INT PRIMARY KEY, k INT NOT NULL)"}
	var rows []string
	for i := 1; i <= 100; i++ {
		rows = append(rows, fmt.Sprintf("(%d, 0)", i))
	}
	setup = append(setup, "INSERT INTO sb VALUES "+strings.Join(rows, ", "))
	var from []string
	for i := 0; i < 30; i++ {
		setup = append(setup, fmt.Sprintf("CREATE TABLE c%d (id INT PRIMARY KEY)", i), fmt.Sprintf("INSERT INTO c%d VALUES (1), (2)", i))
		from = append(from, fmt.Sprintf("c%d", i))
	}
	for name, body := range hostileSoakProcs {
		setup = append(setup, "CREATE PROCEDURE "+name+"() LANGUAGE "+body)
	}
	// The hostile connections are a limited account's (issue 13): it may
	// read test and run its procedures, and holds no grant on vault.secret,
	// which must come out of the soak unread and unchanged.
	setup = append(setup, "CREATE DATABASE vault", "CREATE TABLE vault.secret (id INT PRIMARY KEY, s VARCHAR(40))",
		"INSERT INTO vault.secret VALUES (1, '"+soakSecret+"')",
		"CREATE USER soak@'%' IDENTIFIED BY 'soak'", "GRANT SELECT, EXECUTE ON test.* TO soak@'%'")
	for _, q := range setup {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	stmts := append(hostileStatements(strings.Join(from, ", ")),
		hostileStmt{"secret_read", "SELECT s FROM vault.secret", []uint16{1142}},
		hostileStmt{"secret_subquery", "SELECT (SELECT s FROM vault.secret) FROM c0", []uint16{1142}},
		hostileStmt{"secret_delete", "DELETE FROM vault.secret", []uint16{1142}})
	hostileDB, err := gosql.Open("mysql", strings.Replace(dsn, "root:root@", "soak:soak@", 1))
	if err != nil {
		t.Fatal(err)
	}
	defer hostileDB.Close()
	defer func() {
		var s string
		if err := db.QueryRowContext(ctx, "SELECT s FROM vault.secret WHERE id = 1").Scan(&s); err != nil || s != soakSecret {
			t.Errorf("vault.secret after the soak: %q, %v", s, err)
		}
	}()
	if only := os.Getenv("PLRUN_HOSTILE_SOAK_ONLY"); only != "" {
		var keep []hostileStmt
		for _, st := range stmts {
			if strings.Contains(","+only+",", ","+st.name+",") {
				keep = append(keep, st)
			}
		}
		stmts = keep
	}

	deadline := time.Now().Add(duration)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failures []string
	fail := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		if len(failures) < 20 {
			failures = append(failures, fmt.Sprintf(format, args...))
		}
	}
	outcomes := map[string]map[string]int{} // statement -> outcome -> count
	note := func(name, outcome string) {
		mu.Lock()
		defer mu.Unlock()
		if outcomes[name] == nil {
			outcomes[name] = map[string]int{}
		}
		outcomes[name][outcome]++
	}
	var hostileIDs sync.Map // connection id -> true, for the killer

	// Hostile connections: each runs the whole list in a random order.
	hostile := 4
	if os.Getenv("PLRUN_HOSTILE_SOAK_CALM") != "" {
		hostile = 0
	}
	for w := 0; w < hostile; w++ {
		wg.Add(1)
		go func(seed uint64) {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(seed, 17))
			conn, err := hostileDB.Conn(ctx)
			if err != nil {
				fail("hostile conn: %v", err)
				return
			}
			defer conn.Close()
			var id uint64
			if err := conn.QueryRowContext(ctx, "SELECT CONNECTION_ID()").Scan(&id); err != nil {
				fail("connection id: %v", err)
				return
			}
			hostileIDs.Store(id, true)
			defer hostileIDs.Delete(id)
			for _, q := range []string{"SET max_execution_time = 300", "SET plrun_max_statement_memory = 33554432"} {
				if _, err := conn.ExecContext(ctx, q); err != nil {
					fail("%s: %v", q, err)
					return
				}
			}
			for time.Now().Before(deadline) {
				st := stmts[rng.IntN(len(stmts))]
				rs, err := conn.QueryContext(ctx, st.q)
				if err == nil {
					for rs.Next() {
					}
					err = rs.Err()
					rs.Close()
				}
				var me *mysql.MySQLError
				switch {
				case err == nil && st.codes != nil:
					fail("%s: succeeded, want one of %v", st.name, st.codes)
				case err == nil:
					note(st.name, "ok")
				case errors.As(err, &me) && (me.Number == 1317 || slices.Contains(st.codes, me.Number)):
					note(st.name, fmt.Sprint(me.Number))
				default:
					fail("%s: %v", st.name, err)
				}
			}
		}(uint64(w))
	}
	// A client that gives up: it runs a runaway join on a fresh connection
	// and closes it after 20-80 ms; the server must not keep it running
	// (max_execution_time is its backstop) nor fall over.
	wg.Add(1)
	go func() {
		defer wg.Done()
		for time.Now().Before(deadline) {
			cctx, cancel := context.WithTimeout(ctx, time.Duration(20+rand.IntN(60))*time.Millisecond)
			conn, err := db.Conn(ctx)
			if err != nil {
				// A dial that times out on a saturated machine is the
				// client's failure, not the server's; it is counted.
				cancel()
				note("client_gone", "dial error")
				continue
			}
			if _, err := conn.ExecContext(ctx, "SET max_execution_time = 1000"); err != nil {
				fail("quitter: %v", err)
			}
			_, err = conn.ExecContext(cctx, "SELECT COUNT(*) FROM "+strings.Join(from, ", "))
			cancel()
			_ = conn.Raw(func(any) error { return driver.ErrBadConn }) // drop it, do not reuse
			conn.Close()
			if err == nil {
				fail("quitter: the runaway join finished")
			}
			note("client_gone", "ok")
		}
	}()
	// The killer: KILL QUERY at a random hostile connection every 25 ms.
	wg.Add(1)
	go func() {
		defer wg.Done()
		for time.Now().Before(deadline) {
			time.Sleep(25 * time.Millisecond)
			var ids []uint64
			hostileIDs.Range(func(k, _ any) bool { ids = append(ids, k.(uint64)); return true })
			if len(ids) == 0 {
				continue
			}
			id := ids[rand.IntN(len(ids))]
			if _, err := db.ExecContext(ctx, fmt.Sprintf("KILL QUERY %d", id)); err != nil {
				var me *mysql.MySQLError
				if !errors.As(err, &me) || me.Number != 1094 {
					fail("KILL QUERY %d: %v", id, err)
				}
			}
			note("kill_query", "sent")
		}
	}()
	// The normal workload: point reads and updates, timed.
	const normal = 4
	lat := make([][]time.Duration, normal)
	var updates atomic.Int64
	for w := 0; w < normal; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 99))
			for time.Now().Before(deadline) {
				id := 1 + rng.IntN(100)
				start := time.Now()
				var err error
				if rng.IntN(2) == 0 {
					var k int
					err = db.QueryRowContext(ctx, "SELECT k FROM sb WHERE id = ?", id).Scan(&k)
				} else {
					_, err = db.ExecContext(ctx, "UPDATE sb SET k = k + 1 WHERE id = ?", id)
					if err == nil {
						updates.Add(1)
					}
				}
				lat[w] = append(lat[w], time.Since(start))
				if err != nil {
					fail("normal workload: %v", err)
				}
			}
		}(w)
	}
	wg.Wait()

	// The server is up and the normal workload's effects are all there.
	var sum int64
	if err := db.QueryRowContext(ctx, "SELECT SUM(k) FROM sb").Scan(&sum); err != nil {
		t.Fatalf("server after the soak: %v", err)
	}
	if sum != updates.Load() {
		t.Errorf("SUM(k) = %d after %d acknowledged updates", sum, updates.Load())
	}
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	slices.Sort(all)
	pct := func(p float64) time.Duration {
		if len(all) == 0 {
			return 0
		}
		return all[min(len(all)-1, int(p*float64(len(all))))]
	}
	t.Logf("hostile soak %v: normal workload %d ops, p50 %v, p99 %v, max %v", duration, len(all), pct(0.50), pct(0.99), pct(1))
	names := make([]string, 0, len(outcomes))
	for n := range outcomes {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		t.Logf("  %-18s %v", n, outcomes[n])
	}
	for _, f := range failures {
		t.Error(f)
	}
	if len(all) == 0 {
		t.Fatal("the normal workload completed nothing")
	}
	if p := pct(0.99); p > p99Bound {
		t.Errorf("normal workload p99 %v is past %v", p, p99Bound)
	}
}
