package driver_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	_ "github.com/plrun/plrun/driver"
	"github.com/plrun/plrun/sqlerr"
)

func open(t *testing.T, dsn string) *sql.DB {
	t.Helper()
	db, err := sql.Open("plrun", dsn)
	if err != nil {
		t.Fatal(err)
	}
	return db
}

func TestExecQueryArgsAndErrors(t *testing.T) {
	dir := t.TempDir()
	db := open(t, "file:"+dir+"?enable_early_lock_release=ON&innodb_flush_log_at_trx_commit=1")
	defer db.Close()
	if err := db.Ping(); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE TABLE t (id INT PRIMARY KEY, big BIGINT UNSIGNED, price DECIMAL(6,2), name VARCHAR(10), at DATETIME)"); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	r, err := db.Exec("INSERT INTO t VALUES (?, ?, ?, ?, ?)", 1, uint64(1<<63+5), "3.50", "x", at)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := r.RowsAffected(); n != 1 {
		t.Fatalf("rows affected %d", n)
	}
	var (
		big   uint64
		price string
		name  string
		got   time.Time
	)
	if err := db.QueryRow("SELECT big, price, name, at FROM t WHERE id = ?", 1).Scan(&big, &price, &name, &got); err != nil {
		t.Fatal(err)
	}
	if big != 1<<63+5 || price != "3.50" || name != "x" || !got.Equal(at) {
		t.Fatalf("got %d %s %s %v", big, price, name, got)
	}
	var setting string
	if err := db.QueryRow("SELECT @@enable_early_lock_release").Scan(&setting); err != nil {
		t.Fatal(err)
	}
	if setting != "ON" && setting != "1" {
		t.Errorf("enable_early_lock_release = %q: DSN settings not applied", setting)
	}

	_, err = db.Exec("INSERT INTO t (id) VALUES (?)", 1)
	var se *sqlerr.Error
	if !errors.As(err, &se) || se.Code != sqlerr.ErDupEntry || se.State != "23000" {
		t.Fatalf("duplicate insert: %v, want *sqlerr.Error 1062", err)
	}
	// The connection stays usable (no ErrBadConn on SQL errors).
	db.SetMaxOpenConns(1)
	if _, err := db.Exec("SELEKT"); err == nil {
		t.Fatal("syntax error accepted")
	}
	if err := db.QueryRow("SELECT name FROM t WHERE id = 1").Scan(&name); err != nil {
		t.Fatal(err)
	}
}

func TestTransactionsAndSharedEngine(t *testing.T) {
	dir := t.TempDir()
	dsn := "file:" + dir
	db1 := open(t, dsn)
	db2 := open(t, dsn) // same directory: same engine
	if _, err := db1.Exec("CREATE TABLE a (id INT PRIMARY KEY, v INT)"); err != nil {
		t.Fatal(err)
	}
	tx, err := db1.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec("INSERT INTO a VALUES (1, 1)"); err != nil {
		t.Fatal(err)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	tx, err = db2.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec("INSERT INTO a VALUES (2, 2)"); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	var n, id int
	if err := db1.QueryRow("SELECT COUNT(*), MAX(id) FROM a").Scan(&n, &id); err != nil || n != 1 || id != 2 {
		t.Fatalf("count %d max %d (%v); want 1 row, id 2", n, id, err)
	}
	// Other settings for an open directory are refused.
	if other, err := sql.Open("plrun", dsn+"?enable_early_lock_release=ON"); err == nil {
		other.Close()
		t.Fatal("second open with different settings accepted")
	}
	db1.Close()
	if err := db2.Ping(); err != nil {
		t.Fatalf("db2 after db1 closed: %v", err)
	}
	db2.Close()
	// All closed: the engine was closed and can be reopened, data durable.
	db3 := open(t, dsn)
	defer db3.Close()
	if err := db3.QueryRow("SELECT v FROM a WHERE id = 2").Scan(&n); err != nil || n != 2 {
		t.Fatalf("after reopen: %d, %v", n, err)
	}
}

func TestConcurrentUpdatesAndCancel(t *testing.T) {
	db := open(t, "file:"+t.TempDir()+"?innodb_lock_wait_timeout=50")
	defer db.Close()
	if _, err := db.Exec("CREATE TABLE h (id INT PRIMARY KEY, k INT)"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("INSERT INTO h VALUES (1, 0)"); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 10)
	for range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 30 {
				if _, err := db.Exec("UPDATE h SET k = k + 1 WHERE id = ?", 1); err != nil {
					errs <- err
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
	if err := db.QueryRow("SELECT k FROM h WHERE id = 1").Scan(&k); err != nil || k != 300 {
		t.Fatalf("k = %d (%v), want 300", k, err)
	}

	// A statement waiting for a lock ends when its context is cancelled.
	ctx := context.Background()
	holder, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	if _, err := holder.ExecContext(ctx, "BEGIN"); err != nil {
		t.Fatal(err)
	}
	if _, err := holder.ExecContext(ctx, "UPDATE h SET k = 0 WHERE id = 1"); err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = db.ExecContext(cctx, "UPDATE h SET k = k + 1 WHERE id = 1")
	if err == nil {
		t.Fatal("update behind a held lock succeeded")
	}
	if time.Since(start) > 5*time.Second {
		t.Fatalf("cancellation took %v", time.Since(start))
	}
	if _, err := holder.ExecContext(ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow("SELECT k FROM h WHERE id = 1").Scan(&k); err != nil || k != 300 {
		t.Fatalf("k = %d (%v), want 300", k, err)
	}
}

// TestBeginTxIsolation: database/sql's isolation levels and read-only
// transactions mean what they say (go-sql-driver/mysql's statements).
func TestBeginTxIsolation(t *testing.T) {
	db := open(t, "file:"+t.TempDir())
	defer db.Close()
	ctx := context.Background()
	if _, err := db.Exec("CREATE TABLE t (id INT PRIMARY KEY, v INT)"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("INSERT INTO t VALUES (1, 1)"); err != nil {
		t.Fatal(err)
	}
	read := func(tx *sql.Tx) int {
		var v int
		if err := tx.QueryRow("SELECT v FROM t WHERE id = 1").Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, c := range []struct {
		level    sql.IsolationLevel
		seesNext bool // sees a commit made after its first read
	}{{sql.LevelDefault, false}, {sql.LevelRepeatableRead, false}, {sql.LevelReadCommitted, true}} {
		tx, err := db.BeginTx(ctx, &sql.TxOptions{Isolation: c.level})
		if err != nil {
			t.Fatalf("%v: %v", c.level, err)
		}
		before := read(tx)
		if _, err := db.Exec("UPDATE t SET v = v + 1 WHERE id = 1"); err != nil {
			t.Fatal(err)
		}
		if after := read(tx); (after != before) != c.seesNext {
			t.Errorf("%v: read %d then %d; sees the later commit = %v, want %v", c.level, before, after, after != before, c.seesNext)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	for _, level := range []sql.IsolationLevel{sql.LevelSerializable, sql.LevelReadUncommitted} {
		var se *sqlerr.Error
		if _, err := db.BeginTx(ctx, &sql.TxOptions{Isolation: level}); !errors.As(err, &se) || se.Code != sqlerr.ErNotSupportedYet {
			t.Errorf("%v: %v, want error 1235", level, err)
		}
	}
	tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	var se *sqlerr.Error
	if _, err := tx.Exec("UPDATE t SET v = 0"); !errors.As(err, &se) || se.Code != sqlerr.ErReadOnlyTransaction {
		t.Errorf("write in a read-only transaction: %v, want 1792", err)
	}
	tx.Rollback()
}

// TestCallResultSets: a CALL's result sets are the rows' result sets, in
// order, reached with NextResultSet.
func TestCallResultSets(t *testing.T) {
	db := open(t, "file:"+t.TempDir())
	defer db.Close()
	if _, err := db.Exec("CREATE PROCEDURE two_sets(IN n INT) LANGUAGE JAVASCRIPT AS $$ session.emit(['a'], [[n], [n + 1]]); session.emit(['b', 'c'], [['x', n * 2]]); $$"); err != nil {
		t.Fatal(err)
	}
	rows, err := db.Query("CALL two_sets(?)", 5)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for {
		cols, _ := rows.Columns()
		got = append(got, fmt.Sprint(cols))
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			got = append(got, strings.TrimSuffix(fmt.Sprintln(vals...), "\n"))
		}
		if !rows.NextResultSet() {
			break
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if want := "[a] 5 6 [b c] x 10"; strings.Join(got, " ") != want {
		t.Fatalf("sets %q, want %q", strings.Join(got, " "), want)
	}
}
