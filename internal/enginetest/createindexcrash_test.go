package enginetest

import (
	"context"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/plrun/plrun"
)

// createIndexCrashSettings: table data far smaller than the table, so
// CREATE INDEX streams its copy.
var createIndexCrashSettings = map[string]string{
	"enable_early_lock_release": "ON",
	"ob_enable_pl_async_commit": "ON",
	"innodb_lock_wait_timeout":  "5",
	"plrun_cache_size":          "8M",
}

const createIndexCrashRows = 200_000

// TestCrashCreateIndex SIGKILLs a child that builds and drops k_1 on a
// 200k-row table again and again while a session inserts into it, at a
// random point (most often inside the streamed copy of a CREATE INDEX).
// After each restart the table either has no k_1 or a k_1 that finds
// exactly what a scan finds; every row loaded and every acknowledged
// insert is there, with its values.
func TestCrashCreateIndex(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test skipped in -short mode")
	}
	if raceOn {
		t.Skip("runs without the race detector: make test's store line (Makefile)")
	}
	dir := t.TempDir()
	db, err := plrun.Open(dir, &plrun.Options{Settings: createIndexCrashSettings})
	if err != nil {
		t.Fatal(err)
	}
	s := db.Session()
	loadIndexed(t, s, createIndexCrashRows)
	s.Close()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	acked := map[int64]bool{}
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 15))
	iterations := crashIterations(8)
	withIndex, builds := 0, 0
	for it := 1; it <= iterations; it++ {
		delay := time.Duration(50+rng.IntN(6000)) * time.Millisecond
		lines, stderr := killChild(t, "createindex", dir, it, delay)
		for _, l := range lines {
			f := strings.Fields(l)
			if len(f) != 2 {
				t.Fatalf("iteration %d: child reported %q; stderr:\n%s", it, l, stderr)
			}
			n, _ := strconv.ParseInt(f[1], 10, 64)
			switch f[0] {
			case "s":
				acked[n] = true
			case "A", "D", "d":
			case "a":
				builds++
			default:
				t.Fatalf("iteration %d: child reported %q; stderr:\n%s", it, l, stderr)
			}
		}
		db, err := plrun.Open(dir, &plrun.Options{Settings: createIndexCrashSettings})
		if err != nil {
			t.Fatalf("iteration %d: reopen after SIGKILL: %v", it, err)
		}
		if checkCrashCreateIndex(t, db, acked) {
			withIndex++
		}
		db.Close()
		if t.Failed() {
			t.Fatalf("iteration %d (killed %v after ready) failed", it, delay)
		}
	}
	t.Logf("%d SIGKILLs (%d found k_1 there), %d CREATE INDEX acknowledged, %d inserts acknowledged", iterations, withIndex, builds, len(acked))
}

// checkCrashCreateIndex checks the reopened table and reports whether it
// has k_1.
func checkCrashCreateIndex(t *testing.T, db *plrun.DB, acked map[int64]bool) bool {
	t.Helper()
	ctx := context.Background()
	s := db.Session()
	defer s.Close()
	r, err := s.Query(ctx, "SHOW CREATE TABLE big")
	if err != nil {
		t.Fatalf("after the kill: %v", err)
	}
	show := r.Rows[0][1].String()
	indexed := strings.Contains(show, "KEY `k_1` (`k`)")
	if strings.Count(show, "KEY") != map[bool]int{true: 2, false: 1}[indexed] {
		t.Fatalf("after the kill the table has keys it should not:\n%s", show)
	}
	rows, err := s.Query(ctx, "SELECT id, k, c FROM big IGNORE INDEX (k_1)")
	if err != nil {
		t.Fatal(err)
	}
	have := make(map[int64]bool, len(rows.Rows))
	for _, row := range rows.Rows {
		id, _ := strconv.ParseInt(row[0].String(), 10, 64)
		k, _ := strconv.ParseInt(row[1].String(), 10, 64)
		if k != id%1000 {
			t.Fatalf("row %d has k = %d, want %d", id, k, id%1000)
		}
		if id <= createIndexCrashRows && row[2].String() != "row "+row[0].String()+" of the big table, padded to sixty" {
			t.Fatalf("row %d has c = %q", id, row[2].String())
		}
		have[id] = true
	}
	for id := int64(1); id <= createIndexCrashRows; id++ {
		if !have[id] {
			t.Fatalf("loaded row %d lost (k_1 there: %v)", id, indexed)
		}
	}
	for id := range acked {
		if !have[id] {
			t.Fatalf("acknowledged insert %d lost (k_1 there: %v)", id, indexed)
		}
	}
	if indexed {
		checkBigIndex(t, s, "after the kill")
	}
	return indexed
}

// createIndexChild is the child side of TestCrashCreateIndex (mode
// "createindex"). Lines: "A n" / "a n" CREATE INDEX k_1 started /
// acknowledged (n: the child's iteration), "D n" / "d n" the same for
// DROP INDEX k_1, "s id" an insert acknowledged.
func createIndexChild(db *plrun.DB, iter int64, say func(string, ...any)) {
	ctx := context.Background()
	s := db.Session()
	fail := func(what string, err error) {
		say("err %s: %v", what, err)
		os.Exit(5)
	}
	r, err := s.Query(ctx, "SHOW CREATE TABLE big")
	if err != nil {
		fail("show", err)
	}
	indexed := strings.Contains(r.Rows[0][1].String(), "`k_1`")
	go func() {
		w := db.Session()
		for n := int64(0); ; n++ {
			id := 10_000_000 + iter*1_000_000 + n
			if _, err := w.Exec(ctx, "INSERT INTO big VALUES (?, ?, 'inserted')", id, id%1000); err != nil {
				fail("insert", err)
			}
			say("s %d", id)
			time.Sleep(time.Millisecond)
		}
	}()
	say("ready")
	for {
		if indexed {
			say("D %d", iter)
			if _, err := s.Exec(ctx, "DROP INDEX k_1 ON big"); err != nil {
				fail("drop index", err)
			}
			say("d %d", iter)
		}
		say("A %d", iter)
		if _, err := s.Exec(ctx, "CREATE INDEX k_1 ON big (k)"); err != nil {
			fail("create index", err)
		}
		say("a %d", iter)
		indexed = true
	}
}
