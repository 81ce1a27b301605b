package enginetest

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/plrun/plrun"
	"github.com/plrun/plrun/sqlerr"
)

// TestAlterWaitsForWriters: an ALTER TABLE waits for an open transaction
// that wrote the table, as MySQL's metadata lock does, and gives up with
// 1205 after innodb_lock_wait_timeout; meanwhile the table's readers, and
// readers and writers of other tables, go on. Once the transaction
// commits, the ALTER goes through and converts its row too.
func TestAlterWaitsForWriters(t *testing.T) {
	db, err := plrun.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	a, b, c := db.Session(), db.Session(), db.Session()
	defer a.Close()
	defer b.Close()
	defer c.Close()
	mustExec(t, a, "CREATE TABLE t (id INT PRIMARY KEY, v INT); CREATE TABLE other (id INT PRIMARY KEY); INSERT INTO t VALUES (1, 1)")
	mustExec(t, a, "BEGIN; INSERT INTO t VALUES (2, 2)")
	mustExec(t, b, "SET innodb_lock_wait_timeout = 1")
	altered := make(chan error, 1)
	go func() {
		_, err := b.Exec(ctx, "ALTER TABLE t ADD COLUMN w INT NOT NULL DEFAULT 5")
		altered <- err
	}()
	// While the ALTER waits: the table is read, other tables written.
	for i := 0; i < 20; i++ {
		r, err := c.Query(ctx, "SELECT COUNT(*) FROM t")
		if err != nil || r.Rows[0][0].String() != "1" {
			t.Fatalf("reader during the ALTER: %v %v", r, err)
		}
		if _, err := c.Exec(ctx, "INSERT INTO other VALUES (?)", i); err != nil {
			t.Fatalf("writer of another table during the ALTER: %v", err)
		}
	}
	if err := <-altered; errCode(err) != sqlerr.ErLockWaitTimeout {
		t.Fatalf("ALTER beside an open writer: %v, want 1205", err)
	}
	mustExec(t, a, "COMMIT")
	mustExec(t, b, "ALTER TABLE t ADD COLUMN w INT NOT NULL DEFAULT 5")
	r, err := c.Query(ctx, "SELECT id, v, w FROM t ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Rows) != 2 || r.Rows[1][2].String() != "5" {
		t.Fatalf("after the ALTER: %v", r.Rows)
	}
}

// TestAlterOnline: while ALTER TABLE / CREATE INDEX rebuild a table again
// and again, sessions keep updating and inserting into it and reading it;
// no statement fails, every write is in the final table exactly once, and
// readers always see a whole table (the sum of a column kept constant by
// each update transaction).
func TestAlterOnline(t *testing.T) {
	db, err := plrun.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	s := db.Session()
	defer s.Close()
	const rows = 5000
	mustExec(t, s, "CREATE TABLE acct (id INT PRIMARY KEY, bal INT NOT NULL)")
	vals := make([]string, rows)
	for i := range vals {
		vals[i] = "(" + strconv.Itoa(i) + ", 100)"
	}
	mustExec(t, s, "INSERT INTO acct VALUES "+strings.Join(vals, ","))
	var stop atomic.Bool
	var wg sync.WaitGroup
	var transfers, inserts, reads atomic.Int64
	fail := make(chan error, 8)
	for g := 0; g < 3; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			w := db.Session()
			defer w.Close()
			for n := 0; !stop.Load(); n++ {
				from, to := (n*7+g)%rows, (n*13+g+1)%rows
				if from == to {
					continue
				}
				_, err := w.ExecScript(ctx, "BEGIN; UPDATE acct SET bal = bal - 1 WHERE id = "+strconv.Itoa(from)+
					"; UPDATE acct SET bal = bal + 1 WHERE id = "+strconv.Itoa(to)+"; COMMIT")
				if err != nil {
					w.ExecScript(ctx, "ROLLBACK")
					if code := errCode(err); code == sqlerr.ErLockDeadlock || code == sqlerr.ErLockWaitTimeout {
						continue
					}
					fail <- err
					return
				}
				transfers.Add(1)
			}
		}(g)
	}
	wg.Add(2)
	go func() {
		defer wg.Done()
		w := db.Session()
		defer w.Close()
		for n := rows; !stop.Load(); n++ {
			if _, err := w.Exec(ctx, "INSERT INTO acct (id, bal) VALUES (?, 0)", n); err != nil {
				fail <- err
				return
			}
			inserts.Add(1)
		}
	}()
	go func() {
		defer wg.Done()
		r := db.Session()
		defer r.Close()
		for !stop.Load() {
			res, err := r.Query(ctx, "SELECT SUM(bal), COUNT(*) FROM acct")
			if err != nil {
				fail <- err
				return
			}
			if sum := res.Rows[0][0].String(); sum != strconv.Itoa(rows*100) {
				fail <- errorf("a reader saw SUM(bal) = %s: part of a transfer, or a half-copied table", sum)
				return
			}
			reads.Add(1)
		}
	}()
	changes := []string{
		"ALTER TABLE acct ADD COLUMN note VARCHAR(10) DEFAULT 'x'",
		"CREATE INDEX ib ON acct (bal)",
		"ALTER TABLE acct MODIFY bal BIGINT NOT NULL",
		"DROP INDEX ib ON acct",
		"ALTER TABLE acct DROP COLUMN note, MODIFY bal INT NOT NULL",
	}
	n := 0
	for ; n < 8*len(changes); n++ {
		if _, err := s.Exec(ctx, changes[n%len(changes)]); err != nil {
			stop.Store(true)
			wg.Wait()
			t.Fatalf("%s: %v", changes[n%len(changes)], err)
		}
	}
	stop.Store(true)
	wg.Wait()
	select {
	case err := <-fail:
		t.Fatal(err)
	default:
	}
	r, err := s.Query(ctx, "SELECT SUM(bal), COUNT(*) FROM acct")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := r.Rows[0][1].String(), strconv.Itoa(rows+int(inserts.Load())); got != want || r.Rows[0][0].String() != strconv.Itoa(rows*100) {
		t.Fatalf("after %d schema changes: SUM, COUNT = %v, want %d, %s", n, r.Rows[0], rows*100, want)
	}
	t.Logf("%d schema changes beside %d transfers, %d inserts, %d consistent reads", n, transfers.Load(), inserts.Load(), reads.Load())
}

func mustExec(t *testing.T, s *plrun.Session, script string) {
	t.Helper()
	if _, err := s.ExecScript(context.Background(), script); err != nil {
		t.Fatalf("%s: %v", script, err)
	}
}

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }

// TestAlterOldReadView: a REPEATABLE READ transaction whose read view is
// older than an ALTER TABLE still reads the table as it was when the
// primary key is unchanged (the rows keep their older versions); when the
// ALTER gave the rows new keys, its read is 1412, as InnoDB's is for a
// read view older than the table's definition. A new statement's own
// snapshot always reads the new table.
func TestAlterOldReadView(t *testing.T) {
	db, err := plrun.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	a, b := db.Session(), db.Session()
	defer a.Close()
	defer b.Close()
	mustExec(t, a, "CREATE TABLE t (id INT PRIMARY KEY, v INT NOT NULL); CREATE TABLE other (id INT); INSERT INTO t VALUES (1, 10), (2, 20)")
	mustExec(t, b, "START TRANSACTION WITH CONSISTENT SNAPSHOT; SELECT COUNT(*) FROM other")
	mustExec(t, a, "UPDATE t SET v = 11 WHERE id = 1; ALTER TABLE t ADD COLUMN w INT DEFAULT 5")
	r, err := b.Query(ctx, "SELECT v FROM t WHERE id = 1")
	if err != nil || r.Rows[0][0].String() != "10" {
		t.Fatalf("old read view after ADD COLUMN: %v %v, want 10", r, err)
	}
	mustExec(t, a, "ALTER TABLE t DROP PRIMARY KEY, ADD PRIMARY KEY (v)")
	if _, err := b.Query(ctx, "SELECT v FROM t"); errCode(err) != sqlerr.ErTableDefChanged {
		t.Fatalf("old read view after a new primary key: %v, want 1412", err)
	}
	mustExec(t, b, "COMMIT")
	r, err = b.Query(ctx, "SELECT v, w FROM t ORDER BY v")
	if err != nil || len(r.Rows) != 2 || r.Rows[0][0].String() != "11" || r.Rows[0][1].String() != "5" {
		t.Fatalf("after the ALTERs: %v %v", r, err)
	}
}

// TestConcurrentAlters: two sessions alter the same table at once; the
// second change applies to the first's result, as with MySQL's metadata
// lock, and both are in the final table.
func TestConcurrentAlters(t *testing.T) {
	db, err := plrun.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	s := db.Session()
	defer s.Close()
	vals := make([]string, 3000)
	for i := range vals {
		vals[i] = "(" + strconv.Itoa(i) + ", 1)"
	}
	mustExec(t, s, "CREATE TABLE t (id INT PRIMARY KEY, v INT); INSERT INTO t VALUES "+strings.Join(vals, ","))
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			a := db.Session()
			defer a.Close()
			_, errs[i] = a.Exec(ctx, "ALTER TABLE t ADD COLUMN c"+strconv.Itoa(i)+" INT DEFAULT "+strconv.Itoa(i))
		}(i)
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("ALTER %d: %v", i, err)
		}
	}
	r, err := s.Query(ctx, "SELECT c0, c1, c2, c3, c4, c5, c6, c7, COUNT(*) FROM t GROUP BY c0, c1, c2, c3, c4, c5, c6, c7")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Rows) != 1 || r.Rows[0][8].String() != "3000" || r.Rows[0][7].String() != "7" {
		t.Fatalf("after eight concurrent ALTERs: %v", r.Rows)
	}
}
