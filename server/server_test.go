package server

import (
	"context"
	gosql "database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plrun/plrun/engine"
	"github.com/plrun/plrun/runtime/builtin"

	"github.com/go-sql-driver/mysql"
)

// testServer is a server on a free 127.0.0.1 port over a fresh engine.
type testServer struct {
	srv    *Server
	engine *engine.Engine
	addr   string
	served chan error
}

func startServer(t testing.TB, cfg Config, settings map[string]string) *testServer {
	t.Helper()
	if cfg.RSAKey == nil {
		cfg.RSAKey = testRSAKey(t) // as `plrun serve` has one
	}
	return startServerAs(t, cfg, settings)
}

// startServerAs is startServer with cfg as given (RSAKey nil: none).
func startServerAs(t testing.TB, cfg Config, settings map[string]string) *testServer {
	t.Helper()
	engine, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: t.TempDir(), Settings: settings})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Engine = engine
	if cfg.Users == nil {
		cfg.Users = Users{"root": "root"}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler) // a test that reads the log passes its own
	}
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ts := &testServer{srv: srv, engine: engine, addr: ln.Addr().String(), served: make(chan error, 1)}
	go func() { ts.served <- srv.Serve(ln) }()
	t.Cleanup(func() { ts.stop(t) })
	return ts
}

// stop shuts the server down (once) and closes the engine.
func (ts *testServer) stop(t testing.TB) {
	if ts.engine == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := ts.srv.Shutdown(ctx); err != nil {
		t.Errorf("shutdown: %v", err)
	}
	if err := <-ts.served; err != nil {
		t.Errorf("serve: %v", err)
	}
	if err := ts.engine.Close(); err != nil {
		t.Errorf("engine close: %v", err)
	}
	ts.engine = nil
}

func (ts *testServer) dsn(user, password, db string, params ...string) string {
	q := append([]string{"interpolateParams=false", "timeout=10s"}, params...)
	return fmt.Sprintf("%s:%s@tcp(%s)/%s?%s", user, password, ts.addr, db, strings.Join(q, "&"))
}

func (ts *testServer) open(t *testing.T, params ...string) *gosql.DB {
	t.Helper()
	db, err := gosql.Open("mysql", ts.dsn("root", "root", "test", params...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func mustExec(t *testing.T, db interface {
	Exec(string, ...any) (gosql.Result, error)
}, q string, args ...any) gosql.Result {
	t.Helper()
	r, err := db.Exec(q, args...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return r
}

// mysqlError asserts err is a MySQL error with code and SQLSTATE.
func mysqlError(t *testing.T, err error, code uint16, state string) {
	t.Helper()
	var me *mysql.MySQLError
	if !errors.As(err, &me) {
		t.Fatalf("want MySQL error %d (%s), got %v", code, state, err)
	}
	if me.Number != code || string(me.SQLState[:]) != state {
		t.Fatalf("want error %d (%s), got %d (%s): %s", code, state, me.Number, me.SQLState, me.Message)
	}
}

func TestTextAndPreparedStatements(t *testing.T) {
	ts := startServer(t, Config{}, nil)
	db := ts.open(t)
	mustExec(t, db, `CREATE TABLE items (
		id INT NOT NULL, big BIGINT UNSIGNED NOT NULL, price DECIMAL(10,2), name VARCHAR(20),
		note TEXT, at DATETIME, ratio DOUBLE, PRIMARY KEY (id))`)
	// Prepared (interpolateParams=false): COM_STMT_PREPARE + EXECUTE with
	// binary parameters, including a uint64 above MaxInt64 and a time.
	at := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	r := mustExec(t, db, "INSERT INTO items VALUES (?, ?, ?, ?, ?, ?, ?)",
		1, uint64(18446744073709551615), "12.50", "widget", "some text", at, 0.25)
	if n, _ := r.RowsAffected(); n != 1 {
		t.Fatalf("rows affected %d, want 1", n)
	}
	// Text protocol: no arguments.
	mustExec(t, db, "INSERT INTO items VALUES (2, 7, NULL, 'gadget', NULL, NULL, NULL)")

	type row struct {
		id    int64
		big   uint64
		price gosql.NullString
		name  string
		note  gosql.NullString
		at    gosql.NullString
		ratio gosql.NullFloat64
	}
	scan := func(rows *gosql.Rows) []row {
		t.Helper()
		defer rows.Close()
		var out []row
		for rows.Next() {
			var r row
			if err := rows.Scan(&r.id, &r.big, &r.price, &r.name, &r.note, &r.at, &r.ratio); err != nil {
				t.Fatal(err)
			}
			out = append(out, r)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	want := []row{
		{1, 18446744073709551615, gosql.NullString{String: "12.50", Valid: true}, "widget",
			gosql.NullString{String: "some text", Valid: true}, gosql.NullString{String: "2024-05-06 07:08:09", Valid: true},
			gosql.NullFloat64{Float64: 0.25, Valid: true}},
		{2, 7, gosql.NullString{}, "gadget", gosql.NullString{}, gosql.NullString{}, gosql.NullFloat64{}},
	}
	const sel = "SELECT id, big, price, name, note, at, ratio FROM items WHERE id >= %s ORDER BY id"
	textRows, err := db.Query(fmt.Sprintf(sel, "1"))
	if err != nil {
		t.Fatal(err)
	}
	if got := scan(textRows); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("text protocol rows:\n got %v\nwant %v", got, want)
	}
	binRows, err := db.Query(fmt.Sprintf(sel, "?"), 1)
	if err != nil {
		t.Fatal(err)
	}
	cols, err := binRows.ColumnTypes()
	if err != nil {
		t.Fatal(err)
	}
	var typeNames []string
	for _, c := range cols {
		typeNames = append(typeNames, c.DatabaseTypeName())
	}
	if got, want := strings.Join(typeNames, ","), "INT,UNSIGNED BIGINT,DECIMAL,VARCHAR,TEXT,DATETIME,DOUBLE"; got != want {
		t.Errorf("column types %s, want %s", got, want)
	}
	if p, s, ok := cols[2].DecimalSize(); !ok || p != 10 || s != 2 {
		t.Errorf("DECIMAL size (%d,%d,%v), want (10,2)", p, s, ok)
	}
	if got := scan(binRows); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("binary protocol rows:\n got %v\nwant %v", got, want)
	}

	// A prepared statement reused across executions.
	stmt, err := db.Prepare("SELECT name FROM items WHERE id = ?")
	if err != nil {
		t.Fatal(err)
	}
	defer stmt.Close()
	for id, want := range map[int]string{1: "widget", 2: "gadget"} {
		var name string
		if err := stmt.QueryRow(id).Scan(&name); err != nil || name != want {
			t.Fatalf("id %d: %q, %v; want %q", id, name, err, want)
		}
	}
}

func TestConnectStatementsAndMultiStatements(t *testing.T) {
	ts := startServer(t, Config{}, nil)
	db := ts.open(t, "multiStatements=true")
	db.SetMaxOpenConns(1)
	for _, q := range []string{"SET NAMES utf8mb4", "SET autocommit=1", "SELECT @@version_comment LIMIT 1", "SELECT @@max_allowed_packet"} {
		rows, err := db.Query(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		rows.Close()
	}
	mustExec(t, db, "CREATE TABLE m (id INT PRIMARY KEY, v INT); INSERT INTO m VALUES (1, 10); INSERT INTO m VALUES (2, 20)")
	rows, err := db.Query("SELECT v FROM m WHERE id = 1; SELECT v FROM m WHERE id = 2")
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for {
		for rows.Next() {
			var v int
			if err := rows.Scan(&v); err != nil {
				t.Fatal(err)
			}
			got = append(got, v)
		}
		if !rows.NextResultSet() {
			break
		}
	}
	rows.Close()
	if fmt.Sprint(got) != "[10 20]" {
		t.Fatalf("multi-statement results %v, want [10 20]", got)
	}
	// A failing statement ends the batch with its error.
	_, err = db.Exec("INSERT INTO m VALUES (3, 30); INSERT INTO m VALUES (1, 0); INSERT INTO m VALUES (4, 40)")
	mysqlError(t, err, 1062, "23000")
	var n int
	if err := db.QueryRow("SELECT COUNT(*) FROM m").Scan(&n); err != nil || n != 3 {
		t.Fatalf("count %d, %v; want 3 (the batch stops at the error)", n, err)
	}
	if err := db.Ping(); err != nil {
		t.Fatal(err)
	}
}

func TestTransactions(t *testing.T) {
	ts := startServer(t, Config{}, nil)
	db := ts.open(t)
	mustExec(t, db, "CREATE TABLE acct (id INT PRIMARY KEY, bal INT NOT NULL)")
	mustExec(t, db, "INSERT INTO acct VALUES (1, 100), (2, 100)")

	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	mustExec(t, tx, "UPDATE acct SET bal = bal - 30 WHERE id = ?", 1)
	mustExec(t, tx, "UPDATE acct SET bal = bal + 30 WHERE id = ?", 2)
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	tx, err = db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	mustExec(t, tx, "UPDATE acct SET bal = 0 WHERE id = 1")
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	var b1, b2 int
	if err := db.QueryRow("SELECT (SELECT bal FROM acct WHERE id = 1), (SELECT bal FROM acct WHERE id = 2)").Scan(&b1, &b2); err != nil {
		if err := db.QueryRow("SELECT bal FROM acct WHERE id = 1").Scan(&b1); err != nil {
			t.Fatal(err)
		}
		if err := db.QueryRow("SELECT bal FROM acct WHERE id = 2").Scan(&b2); err != nil {
			t.Fatal(err)
		}
	}
	if b1 != 70 || b2 != 130 {
		t.Fatalf("balances %d,%d; want 70,130", b1, b2)
	}
}

func TestErrors(t *testing.T) {
	ts := startServer(t, Config{}, nil)
	db := ts.open(t)
	mustExec(t, db, "CREATE TABLE e (id INT PRIMARY KEY)")
	mustExec(t, db, "INSERT INTO e VALUES (1)")
	_, err := db.Exec("INSERT INTO e VALUES (1)") // text protocol
	mysqlError(t, err, 1062, "23000")
	_, err = db.Exec("INSERT INTO e VALUES (?)", 1) // prepared
	mysqlError(t, err, 1062, "23000")
	_, err = db.Exec("SELECT * FROM nosuch")
	mysqlError(t, err, 1146, "42S02")
	_, err = db.Exec("SELEKT 1")
	mysqlError(t, err, 1064, "42000")
	_, err = db.Exec("USE nosuchdb")
	mysqlError(t, err, 1049, "42000")

	// The handshake's database.
	bad, err := gosql.Open("mysql", ts.dsn("root", "root", "nosuchdb"))
	if err != nil {
		t.Fatal(err)
	}
	defer bad.Close()
	mysqlError(t, bad.Ping(), 1049, "42000")
	// The connection is still usable after errors.
	if err := db.Ping(); err != nil {
		t.Fatal(err)
	}
}

func TestAuthentication(t *testing.T) {
	ts := startServer(t, Config{Users: Users{"root": "root", "app": ""}}, nil)
	for _, tc := range []struct {
		user, password string
		ok             bool
	}{
		{"root", "root", true},
		{"root@test", "root", true}, // OceanBase's user@tenant, as in the seed
		{"app", "", true},
		{"root", "wrong", false},
		{"nobody", "root", false},
		{"", "", false},
	} {
		db, err := gosql.Open("mysql", ts.dsn(tc.user, tc.password, "test"))
		if err != nil {
			t.Fatal(err)
		}
		err = db.Ping()
		db.Close()
		if tc.ok && err != nil {
			t.Errorf("%q/%q: %v", tc.user, tc.password, err)
		}
		if !tc.ok {
			mysqlError(t, err, 1045, "28000")
		}
	}
}

func TestCachingSha2Password(t *testing.T) {
	ts := startServer(t, Config{AuthPlugin: "caching_sha2_password", Users: Users{"root": "root", "root@test": "root"}}, nil)
	for _, user := range []string{"root", "root@test"} {
		db, err := gosql.Open("mysql", ts.dsn(user, "root", "test"))
		if err != nil {
			t.Fatal(err)
		}
		if err := db.Ping(); err != nil {
			t.Errorf("%s: %v", user, err)
		}
		db.Close()
	}
	db, _ := gosql.Open("mysql", ts.dsn("root", "wrong", "test"))
	defer db.Close()
	mysqlError(t, db.Ping(), 1045, "28000")
}

func TestConcurrentHotRow(t *testing.T) {
	ts := startServer(t, Config{}, map[string]string{"enable_early_lock_release": "ON"})
	db := ts.open(t)
	mustExec(t, db, "CREATE TABLE sbtest1 (id INT NOT NULL AUTO_INCREMENT, k INT NOT NULL DEFAULT '0', c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '', PRIMARY KEY (id))")
	mustExec(t, db, "INSERT INTO sbtest1 VALUES (1, 0, 'aa', 'aa')")
	const clients, updates = 20, 50
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := gosql.Open("mysql", ts.dsn("root@test", "root", "test"))
			if err != nil {
				errs <- err
				return
			}
			defer c.Close()
			for j := range updates {
				var err error
				if i%2 == 0 {
					_, err = c.Exec("update sbtest1 set k=k+1 where id=1")
				} else {
					_, err = c.Exec("update sbtest1 set k=k+1 where id=?", 1)
				}
				if err != nil {
					errs <- fmt.Errorf("client %d update %d: %w", i, j, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	var k int
	if err := db.QueryRow("SELECT k FROM sbtest1 WHERE id = 1").Scan(&k); err != nil {
		t.Fatal(err)
	}
	if k != clients*updates {
		t.Fatalf("k = %d, want %d", k, clients*updates)
	}
}

// processID returns the id SHOW PROCESSLIST gives the session running a
// statement that contains marker.
// holdLock opens a connection that begins a transaction and runs update,
// so the transaction holds that row's lock until the connection closes.
func holdLock(t *testing.T, db *gosql.DB, update string) *gosql.Conn {
	t.Helper()
	ctx := context.Background()
	holder, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { holder.Close() })
	for _, q := range []string{"BEGIN", update} {
		if _, err := holder.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	return holder
}

func processID(t *testing.T, db *gosql.DB, marker string) uint64 {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if id, ok := findProcess(t, db, marker); ok {
			return id
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no process running %q", marker)
	return 0
}

// findProcess returns the SHOW PROCESSLIST Id of a statement whose Info
// holds marker, if one runs now.
func findProcess(t *testing.T, db *gosql.DB, marker string) (uint64, bool) {
	t.Helper()
	rows, err := db.Query("SHOW PROCESSLIST")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	for rows.Next() {
		vals := make([]gosql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		for i, c := range cols {
			if strings.EqualFold(c, "Info") && strings.Contains(vals[i].String, marker) {
				var id uint64
				fmt.Sscan(vals[0].String, &id)
				return id, true
			}
		}
	}
	return 0, false
}

func TestKill(t *testing.T) {
	ts := startServer(t, Config{}, map[string]string{"innodb_lock_wait_timeout": "50"})
	db := ts.open(t)
	mustExec(t, db, "CREATE TABLE hot (id INT PRIMARY KEY, k INT)")
	mustExec(t, db, "INSERT INTO hot VALUES (1, 0)")

	ctx := context.Background()
	holder := holdLock(t, db, "UPDATE hot SET k = k + 1 WHERE id = 1")

	waiter, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer waiter.Close()
	blocked := make(chan error, 1)
	go func() {
		_, err := waiter.ExecContext(ctx, "UPDATE hot SET k = k + 100 WHERE id = 1 /* kill-me */")
		blocked <- err
	}()
	id := processID(t, db, "kill-me")
	mustExec(t, db, fmt.Sprintf("KILL QUERY %d", id))
	select {
	case err := <-blocked:
		mysqlError(t, err, 1317, "70100")
	case <-time.After(10 * time.Second):
		t.Fatal("KILL QUERY did not interrupt the waiting statement")
	}
	// The connection survives KILL QUERY.
	if err := waiter.PingContext(ctx); err != nil {
		t.Fatalf("after KILL QUERY: %v", err)
	}
	if _, err := holder.ExecContext(ctx, "COMMIT"); err != nil {
		t.Fatal(err)
	}
	var k int
	if err := db.QueryRow("SELECT k FROM hot WHERE id = 1").Scan(&k); err != nil || k != 1 {
		t.Fatalf("k = %d, %v; want 1 (the killed update must not apply)", k, err)
	}
	_, err = db.Exec("KILL 987654")
	mysqlError(t, err, 1094, "HY000")
}

func TestMaxConnections(t *testing.T) {
	ts := startServer(t, Config{MaxConnections: 2}, nil)
	db := ts.open(t)
	db.SetMaxIdleConns(2)
	ctx := context.Background()
	c1, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c2, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := c2.PingContext(ctx); err != nil {
		t.Fatal(err)
	}
	extra, _ := gosql.Open("mysql", ts.dsn("root", "root", "test"))
	defer extra.Close()
	mysqlError(t, extra.Ping(), 1040, "08004")
	c1.Close()
	// A slot frees when a connection ends (database/sql keeps c1 idle, so
	// close the pool's idle connections).
	db.SetMaxIdleConns(0)
	deadline := time.Now().Add(5 * time.Second)
	for {
		err := extra.Ping()
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no slot after a connection closed: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	c2.Close()
}

func TestGracefulShutdown(t *testing.T) {
	ts := startServer(t, Config{}, map[string]string{"innodb_lock_wait_timeout": "50"})
	db := ts.open(t)
	mustExec(t, db, "CREATE TABLE g (id INT PRIMARY KEY, k INT)")
	mustExec(t, db, "INSERT INTO g VALUES (1, 0)")
	ctx := context.Background()
	// An idle connection with an open transaction holding the row lock,
	// and a statement in flight waiting for that lock.
	holder := holdLock(t, db, "UPDATE g SET k = 5 WHERE id = 1")
	waiter, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer waiter.Close()
	inFlight := make(chan error, 1)
	go func() {
		_, err := waiter.ExecContext(ctx, "UPDATE g SET k = k + 1 WHERE id = 1 /* in-flight */")
		inFlight <- err
	}()
	processID(t, db, "in-flight")

	// Shutdown closes the idle connection (its transaction rolls back,
	// releasing the lock) and lets the in-flight statement finish and
	// deliver its reply.
	sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := ts.srv.Shutdown(sctx); err != nil {
		t.Fatal(err)
	}
	if err := <-inFlight; err != nil {
		t.Fatalf("in-flight statement: %v", err)
	}
	if err := holder.PingContext(ctx); err == nil {
		t.Fatal("idle connection still open after shutdown")
	}
	if _, err := net.DialTimeout("tcp", ts.addr, time.Second); err == nil {
		t.Fatal("listener still accepting after shutdown")
	}
	if err := <-ts.served; err != nil {
		t.Fatalf("Serve after Shutdown: %v", err)
	}
	ts.served <- nil
	s := ts.engine.NewSession()
	r, err := s.Exec(ctx, "SELECT k FROM g WHERE id = 1", nil)
	s.Close()
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Rows[0][0].String(); got != "1" {
		t.Fatalf("k = %s, want 1 (holder rolled back, in-flight update applied)", got)
	}
}

func TestShutdownCancelsAfterBound(t *testing.T) {
	ts := startServer(t, Config{}, nil)
	db := ts.open(t)
	ctx := context.Background()
	slow, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	inFlight := make(chan error, 1)
	go func() {
		var v int
		err := slow.QueryRowContext(ctx, "SELECT SLEEP(30) /* slow */").Scan(&v)
		if err == nil && v == 0 {
			err = errors.New("SLEEP(30) ran to its end")
		}
		inFlight <- err
	}()
	processID(t, db, "slow")
	sctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	if err := ts.srv.Shutdown(sctx); err == nil {
		t.Fatal("shutdown reported no cancelled statement")
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("shutdown took %v", d)
	}
	select {
	case err := <-inFlight:
		// MySQL's SLEEP returns 1 when interrupted; an error is as good.
		if err != nil && strings.Contains(err.Error(), "ran to its end") {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("cancelled statement never returned to its client")
	}
}

func TestShutdownLetsStatementsFinish(t *testing.T) {
	ts := startServer(t, Config{}, nil)
	db := ts.open(t)
	mustExec(t, db, "CREATE TABLE f (id INT PRIMARY KEY, k INT)")
	mustExec(t, db, "INSERT INTO f VALUES (1, 0)")
	// Clients keep updating while the server shuts down: every update
	// acknowledged before shutdown must be in the data, and every client
	// must get either success or an error, never a hang.
	var acked sync.WaitGroup
	var mu sync.Mutex
	okCount := 0
	for range 4 {
		acked.Add(1)
		go func() {
			defer acked.Done()
			c, _ := gosql.Open("mysql", ts.dsn("root", "root", "test"))
			defer c.Close()
			for {
				if _, err := c.Exec("UPDATE f SET k = k + 1 WHERE id = 1"); err != nil {
					return
				}
				mu.Lock()
				okCount++
				mu.Unlock()
			}
		}()
	}
	time.Sleep(300 * time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := ts.srv.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	acked.Wait()
	s := ts.engine.NewSession()
	r, err := s.Exec(context.Background(), "SELECT k FROM f WHERE id = 1", nil)
	s.Close()
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Rows[0][0].String(); got != fmt.Sprint(okCount) {
		t.Fatalf("k = %s, want %d acknowledged updates", got, okCount)
	}
	if okCount == 0 {
		t.Fatal("no update was acknowledged before shutdown")
	}
	<-ts.served
	ts.served <- nil
	ts.engine.Close()
	ts.engine = nil
}
