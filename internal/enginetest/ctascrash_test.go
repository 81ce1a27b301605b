package enginetest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/plrun/plrun"
	"github.com/plrun/plrun/sqlerr"
)

// CREATE TABLE ... SELECT is one log record holding the table and its
// rows: after a crash the table is there with every row, or not at all.

const ctasRows = 300

// TestCrashCreateSelect SIGKILLs a child that loops CREATE TABLE c_N
// SELECT * FROM src and DROP TABLE c_N beside inserts on another table;
// after each restart every c_N present has all of src's rows, an
// acknowledged one not yet dropped is present, and no acknowledged insert
// is lost.
func TestCrashCreateSelect(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test skipped in -short mode")
	}
	dir := t.TempDir()
	db, err := plrun.Open(dir, &plrun.Options{Settings: crashSettings})
	if err != nil {
		t.Fatal(err)
	}
	s := db.Session()
	vals := make([]string, ctasRows)
	for i := range vals {
		vals[i] = fmt.Sprintf("(%d, 'row %d')", i+1, i+1)
	}
	if _, err := s.ExecScript(context.Background(), "CREATE TABLE src (id INT PRIMARY KEY, v VARCHAR(20)); INSERT INTO src VALUES "+
		strings.Join(vals, ",")+"; CREATE TABLE ins (id BIGINT PRIMARY KEY, p INT NOT NULL)"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	db.Close()
	acked := map[int64]bool{}
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 12))
	iterations := crashIterations(8)
	present := 0
	for it := 1; it <= iterations; it++ {
		delay := time.Duration(50+rng.IntN(400)) * time.Millisecond
		lines, stderr := killChild(t, "ctas", dir, it, delay)
		live := map[string]bool{} // acknowledged created, not yet dropped
		for _, l := range lines {
			f := strings.Fields(l)
			switch {
			case len(f) == 2 && f[0] == "s":
				id, _ := strconv.ParseInt(f[1], 10, 64)
				acked[id] = true
			case len(f) == 2 && f[0] == "c":
				live[f[1]] = true
			case len(f) == 2 && f[0] == "X":
				delete(live, f[1])
			case len(f) == 2 && (f[0] == "C" || f[0] == "x"):
			default:
				t.Errorf("iteration %d: child reported %q; stderr:\n%s", it, l, stderr)
			}
		}
		db, err := plrun.Open(dir, nil)
		if err != nil {
			t.Fatalf("iteration %d: reopen after SIGKILL: %v", it, err)
		}
		present += checkCrashCreateSelect(t, db, it, live, acked)
		db.Close()
		if t.Failed() {
			t.Fatalf("iteration %d (killed %v after ready) failed", it, delay)
		}
	}
	t.Logf("%d SIGKILLs; %d created tables found whole; %d acknowledged inserts", iterations, present, len(acked))
}

// ctasChild is the child side (TestCrashChild with mode "ctas"). Lines:
// "C name"/"c name" a CREATE ... SELECT started/acknowledged, "X name"/"x
// name" its DROP started/acknowledged, "s id" an insert acknowledged.
func ctasChild(db *plrun.DB, iter int64, say func(string, ...any)) {
	ctx := context.Background()
	fail := func(what string, err error) {
		say("err %s: %v", what, err)
		os.Exit(5)
	}
	go func() {
		s := db.Session()
		for n := int64(0); ; n++ {
			id := iter*1_000_000_000 + n
			if _, err := s.Exec(ctx, "INSERT INTO ins VALUES (?, 1)", id); err != nil {
				fail("insert", err)
			}
			say("s %d", id)
		}
	}()
	s := db.Session()
	say("ready")
	for n := 0; ; n++ {
		name := fmt.Sprintf("c_%d_%d", iter, n)
		say("C %s", name)
		if _, err := s.Exec(ctx, "CREATE TABLE "+name+" (PRIMARY KEY (id)) SELECT * FROM src"); err != nil {
			fail("create", err)
		}
		say("c %s", name)
		if n%2 == 0 {
			say("X %s", name)
			if _, err := s.Exec(ctx, "DROP TABLE "+name); err != nil {
				fail("drop", err)
			}
			say("x %s", name)
		}
	}
}

// checkCrashCreateSelect checks the c_<it>_N tables after the kill and
// returns how many there are.
func checkCrashCreateSelect(t *testing.T, db *plrun.DB, it int, live map[string]bool, acked map[int64]bool) int {
	t.Helper()
	ctx := context.Background()
	s := db.Session()
	defer s.Close()
	r, err := s.Query(ctx, "SHOW TABLES")
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	prefix := fmt.Sprintf("c_%d_", it)
	for _, row := range r.Rows {
		name := row[0].String()
		if !strings.HasPrefix(name, prefix) {
			continue
		}
		found++
		delete(live, name)
		c, err := s.Query(ctx, "SELECT COUNT(*), SUM(id) FROM "+name)
		if err != nil {
			t.Fatalf("count %s: %v", name, err)
		}
		if got, want := c.Rows[0][0].String()+" "+c.Rows[0][1].String(), fmt.Sprintf("%d %d", ctasRows, ctasRows*(ctasRows+1)/2); got != want {
			t.Errorf("%s after the kill has COUNT, SUM(id) = %s, want %s: not all of its rows", name, got, want)
		}
	}
	for name := range live {
		if _, err := s.Query(ctx, "SELECT 1 FROM "+name); err != nil {
			if e, ok := sqlerr.As(err); ok && e.Code == sqlerr.ErNoSuchTable {
				t.Errorf("acknowledged CREATE TABLE %s ... SELECT lost", name)
			}
		}
	}
	checkAckedInserts(t, s, acked)
	return found
}
