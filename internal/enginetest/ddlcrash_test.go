package enginetest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plrun/plrun"
	"github.com/plrun/plrun/sqlerr"
)

// Every DDL statement is one log record, applied whole: TRUNCATE never
// leaves a moment (or, after a crash, a state) without the table, and
// DROP TABLE a, b, c drops all of them or none.

const ddlGroupRows, ddlTruncRows = 10, 5

var ddlGroup = []string{"g1", "g2", "g3"}

// TestTruncateConcurrentReaders: while one session TRUNCATEs and refills a
// table, readers always find it (never 1146) and see it empty or full,
// never half filled.
func TestTruncateConcurrentReaders(t *testing.T) {
	db, err := plrun.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	w := db.Session()
	defer w.Close()
	if _, err := w.ExecScript(ctx, "CREATE TABLE tt (id INT PRIMARY KEY); INSERT INTO tt VALUES (1),(2),(3),(4),(5)"); err != nil {
		t.Fatal(err)
	}
	const rounds = 300
	done := make(chan struct{})
	var readers sync.WaitGroup
	var reads, empty [4]int
	for r := 0; r < len(reads); r++ {
		readers.Add(1)
		go func(r int) {
			defer readers.Done()
			s := db.Session()
			defer s.Close()
			for {
				select {
				case <-done:
					return
				default:
				}
				res, err := s.Query(ctx, "SELECT COUNT(*) FROM tt")
				if err != nil {
					t.Errorf("reader during TRUNCATE: %v", err)
					return
				}
				switch n := res.Rows[0][0].String(); n {
				case "0":
					empty[r]++
				case "5":
				default:
					t.Errorf("reader saw %s rows: half a refill", n)
					return
				}
				reads[r]++
			}
		}(r)
	}
	for i := 0; i < rounds && !t.Failed(); i++ {
		if _, err := w.ExecScript(ctx, "TRUNCATE TABLE tt; INSERT INTO tt VALUES (1),(2),(3),(4),(5)"); err != nil {
			t.Fatal(err)
		}
	}
	close(done)
	readers.Wait()
	t.Logf("%d TRUNCATE+refill rounds; reads %v, of them empty %v", rounds, reads, empty)
}

// TestCrashDDL SIGKILLs a child that loops DROP TABLE g1, g2, g3 /
// re-create, and TRUNCATE tt / refill, beside DML on another table; after
// each restart every acknowledged insert is there, tt exists, and the g
// tables are all there or (only if a DROP was in flight or done) all gone.
func TestCrashDDL(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test skipped in -short mode")
	}
	dir := t.TempDir()
	db, err := plrun.Open(dir, &plrun.Options{Settings: crashSettings})
	if err != nil {
		t.Fatal(err)
	}
	s := db.Session()
	if _, err := s.ExecScript(context.Background(), "CREATE TABLE tt (id INT PRIMARY KEY); CREATE TABLE ins (id BIGINT PRIMARY KEY, p INT NOT NULL)"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	db.Close()
	acked := map[int64]bool{}
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 11))
	iterations := crashIterations(10)
	states := map[string]int{}
	for it := 1; it <= iterations; it++ {
		delay := time.Duration(50+rng.IntN(400)) * time.Millisecond
		last := runDDLChild(t, dir, it, delay, acked)
		states[last]++
		db, err := plrun.Open(dir, nil)
		if err != nil {
			t.Fatalf("iteration %d: reopen after SIGKILL: %v", it, err)
		}
		checkCrashDDL(t, db, last, acked)
		db.Close()
		if t.Failed() {
			t.Fatalf("iteration %d (killed %v after ready, last DDL step %q) failed", it, delay, last)
		}
	}
	t.Logf("%d SIGKILLs; last DDL step at the kill: %v; %d acknowledged inserts", iterations, states, len(acked))
}

// ddlChild is the child side of TestCrashDDL (TestCrashChild with mode
// "ddl"). Lines: "D"/"d" a DROP of the g tables started/acknowledged, "r"
// the g tables re-created and filled, "T"/"t" a TRUNCATE of tt
// started/acknowledged, "f" tt refilled, "s id" an insert acknowledged.
func ddlChild(db *plrun.DB, iter int64, say func(string, ...any)) {
	ctx := context.Background()
	s := db.Session()
	fail := func(what string, err error) {
		say("err %s: %v", what, err)
		os.Exit(5)
	}
	// Normalize what the last kill left: every g table full, tt full.
	for _, g := range ddlGroup {
		if err := ensureFilled(ctx, s, g, ddlGroupRows, true); err != nil {
			fail("normalize "+g, err)
		}
	}
	if err := ensureFilled(ctx, s, "tt", ddlTruncRows, false); err != nil {
		fail("normalize tt", err)
	}
	for g := 0; g < 4; g++ {
		go func(g int) {
			s := db.Session()
			for n := int64(0); ; n++ {
				id := iter*1_000_000_000 + int64(g)*1_000_000 + n
				if _, err := s.Exec(ctx, "INSERT INTO ins VALUES (?, ?)", id, g); err != nil {
					fail("insert", err)
				}
				say("s %d", id)
			}
		}(g)
	}
	say("ready")
	for {
		say("D")
		if _, err := s.Exec(ctx, "DROP TABLE g1, g2, g3"); err != nil {
			fail("drop", err)
		}
		say("d")
		for _, g := range ddlGroup {
			if err := ensureFilled(ctx, s, g, ddlGroupRows, true); err != nil {
				fail("re-create "+g, err)
			}
		}
		say("r")
		say("T")
		if _, err := s.Exec(ctx, "TRUNCATE TABLE tt"); err != nil {
			fail("truncate", err)
		}
		say("t")
		if err := ensureFilled(ctx, s, "tt", ddlTruncRows, false); err != nil {
			fail("refill", err)
		}
		say("f")
	}
}

// ensureFilled makes table hold ids 1..n, inserted by one statement;
// create says it may have to be created first.
func ensureFilled(ctx context.Context, s *plrun.Session, table string, n int, create bool) error {
	if create {
		if _, err := s.Exec(ctx, "CREATE TABLE IF NOT EXISTS "+table+" (id INT PRIMARY KEY)"); err != nil {
			return err
		}
	}
	r, err := s.Query(ctx, "SELECT COUNT(*) FROM "+table)
	if err != nil {
		return err
	}
	if r.Rows[0][0].String() != "0" {
		return nil
	}
	vals := make([]string, n)
	for i := range vals {
		vals[i] = fmt.Sprintf("(%d)", i+1)
	}
	_, err = s.Exec(ctx, "INSERT INTO "+table+" VALUES "+strings.Join(vals, ","))
	return err
}

// runDDLChild runs the child until delay after it is ready, SIGKILLs it,
// records its acknowledged inserts and returns its last DDL step.
func runDDLChild(t *testing.T, dir string, iter int, delay time.Duration, acked map[int64]bool) string {
	t.Helper()
	lines, stderr := killChild(t, "ddl", dir, iter, delay)
	last := "r" // the child normalizes before it is ready
	for _, l := range lines {
		f := strings.Fields(l)
		switch {
		case f[0] == "s" && len(f) == 2:
			id, _ := strconv.ParseInt(f[1], 10, 64)
			acked[id] = true
		case len(l) == 1 && strings.Contains("DdrTtf", l):
			last = l
		default:
			t.Errorf("iteration %d: child reported %q; stderr:\n%s", iter, l, stderr)
		}
	}
	return last
}

func checkCrashDDL(t *testing.T, db *plrun.DB, last string, acked map[int64]bool) {
	t.Helper()
	ctx := context.Background()
	s := db.Session()
	defer s.Close()
	count := func(table string) (int, bool) {
		r, err := s.Query(ctx, "SELECT COUNT(*) FROM "+table)
		if e, ok := sqlerr.As(err); ok && e.Code == sqlerr.ErNoSuchTable {
			return 0, false
		}
		if err != nil {
			t.Fatalf("count %s: %v", table, err)
		}
		n, _ := strconv.Atoi(r.Rows[0][0].String())
		return n, true
	}
	n, ok := count("tt")
	switch {
	case !ok:
		t.Errorf("after the kill (last step %q) table tt is gone: TRUNCATE was not atomic", last)
	case n != 0 && n != ddlTruncRows:
		t.Errorf("tt has %d rows, want 0 or %d", n, ddlTruncRows)
	case last == "f" && n != ddlTruncRows:
		t.Errorf("tt has %d rows after its acknowledged refill", n)
	}
	present := 0
	for _, g := range ddlGroup {
		n, ok := count(g)
		if !ok {
			continue
		}
		present++
		if last == "D" && n != ddlGroupRows {
			t.Errorf("%s has %d rows, want %d (it was full before the DROP)", g, n, ddlGroupRows)
		}
	}
	switch last {
	case "D":
		if present != 0 && present != len(ddlGroup) {
			t.Errorf("DROP TABLE g1, g2, g3 in flight at the kill left %d of the 3 tables", present)
		}
	case "r", "T", "t", "f":
		if present != len(ddlGroup) {
			t.Errorf("only %d of the g tables after their acknowledged re-creation", present)
		}
	}
	checkAckedInserts(t, s, acked)
}
