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
)

// alterCycle is the schema changes TestCrashAlter's child runs on table
// at, in a loop: step i takes the table from state i to state i+1 (mod
// len). Inserts of (id, v) work in every state; w, when there, is 7.
var alterCycle = []string{
	"ALTER TABLE at ADD COLUMN w INT NOT NULL DEFAULT 7",
	"CREATE INDEX iv ON at (v)",
	"ALTER TABLE at ALTER COLUMN v SET DEFAULT 3, RENAME INDEX iv TO iv2", // rows unchanged: instant
	"ALTER TABLE at MODIFY v BIGINT NOT NULL DEFAULT 3, ADD UNIQUE KEY uw (id, w)",
	"RENAME TABLE at TO at_tmp, at_tmp TO at",
	"DROP INDEX iv2 ON at",
	"ALTER TABLE at DROP COLUMN w, MODIFY v INT NOT NULL, DROP INDEX uw",
}

const alterBase = "CREATE TABLE at (id BIGINT PRIMARY KEY, v INT NOT NULL)"

// stateOf finds the table's state in the cycle, or -1.
func stateOf(states []string, show string) int {
	for i, st := range states {
		if st == show {
			return i
		}
	}
	return -1
}

// TestCrashAlter SIGKILLs a child that loops the ALTER TABLE / CREATE
// INDEX / DROP INDEX / RENAME TABLE cycle on a table while four sessions
// insert into it; after each restart the table is wholly in the state
// before or after the change that was in flight (its definition is one of
// the cycle's, and every row is converted: v = id % 1000, w = 7), its
// secondary index finds what a scan finds, and every acknowledged insert
// is there.
func TestCrashAlter(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test skipped in -short mode")
	}
	states := alterStates()
	dir := t.TempDir()
	db, err := plrun.Open(dir, &plrun.Options{Settings: crashSettings})
	if err != nil {
		t.Fatal(err)
	}
	s := db.Session()
	if _, err := s.Exec(context.Background(), alterBase); err != nil {
		t.Fatal(err)
	}
	s.Close()
	db.Close()
	acked := map[int64]bool{}
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 12))
	iterations := crashIterations(10)
	state, inFlight, changes := 0, 0, 0
	for it := 1; it <= iterations; it++ {
		delay := time.Duration(100+rng.IntN(600)) * time.Millisecond
		lines, stderr := killChild(t, "alter", dir, it, delay)
		inFlight = -1
		for _, l := range lines {
			f := strings.Fields(l)
			if len(f) != 2 {
				t.Fatalf("iteration %d: child reported %q; stderr:\n%s", it, l, stderr)
			}
			n, _ := strconv.ParseInt(f[1], 10, 64)
			switch f[0] {
			case "s":
				acked[n] = true
			case "A":
				inFlight = int(n)
			case "a":
				state, inFlight = int(n), -1
				changes++
			default:
				t.Fatalf("iteration %d: child reported %q; stderr:\n%s", it, l, stderr)
			}
		}
		db, err := plrun.Open(dir, nil)
		if err != nil {
			t.Fatalf("iteration %d: reopen after SIGKILL: %v", it, err)
		}
		state = checkCrashAlter(t, db, states, state, inFlight, acked)
		db.Close()
		if t.Failed() {
			t.Fatalf("iteration %d (killed %v after ready) failed", it, delay)
		}
	}
	t.Logf("%d SIGKILLs, %d acknowledged schema changes, %d acknowledged inserts", iterations, changes, len(acked))
}

// checkCrashAlter checks the reopened table and returns its state.
func checkCrashAlter(t *testing.T, db *plrun.DB, states []string, state, inFlight int, acked map[int64]bool) int {
	t.Helper()
	ctx := context.Background()
	s := db.Session()
	defer s.Close()
	r, err := s.Query(ctx, "SHOW CREATE TABLE at")
	if err != nil {
		t.Fatalf("after the kill: %v", err)
	}
	// (A RENAME there and back changes nothing SHOW CREATE TABLE shows, so
	// states are compared by their text.)
	show := r.Rows[0][1].String()
	got := -1
	switch {
	case show == states[state]:
		got = state
	case inFlight >= 0 && show == states[inFlight]:
		got = inFlight
	default:
		t.Fatalf("after the kill the table is in state %d; the last acknowledged change left state %d, the one in flight would make %d:\n%s", stateOf(states, show), state, inFlight, show)
	}
	rows, err := s.Query(ctx, "SELECT id, v FROM at")
	if err != nil {
		t.Fatal(err)
	}
	have := make(map[int64]bool, len(rows.Rows))
	perV := map[int64]int{}
	for _, row := range rows.Rows {
		id, _ := strconv.ParseInt(row[0].String(), 10, 64)
		v, _ := strconv.ParseInt(row[1].String(), 10, 64)
		if v != id%1000 {
			t.Fatalf("row %d has v = %d, want %d", id, v, id%1000)
		}
		have[id] = true
		perV[v]++
	}
	for id := range acked {
		if !have[id] {
			t.Fatalf("acknowledged insert %d lost (table in state %d)", id, got)
		}
	}
	if strings.Contains(states[got], "`w`") {
		r, err := s.Query(ctx, "SELECT COUNT(*) FROM at WHERE w <> 7")
		if err != nil {
			t.Fatal(err)
		}
		if n := r.Rows[0][0].String(); n != "0" {
			t.Fatalf("%s rows without the added column's default: a half-converted table", n)
		}
	}
	for v := int64(0); v < 5; v++ {
		r, err := s.Query(ctx, "SELECT COUNT(*) FROM at WHERE v = ?", v)
		if err != nil {
			t.Fatal(err)
		}
		if n := r.Rows[0][0].String(); n != strconv.Itoa(perV[v]) {
			t.Fatalf("WHERE v = %d finds %s rows, a scan %d (state %d)", v, n, perV[v], got)
		}
	}
	return got
}

// alterChild is the child side of TestCrashAlter (TestCrashChild with
// mode "alter"). Lines: "A n" the change to state n started, "a n" it was
// acknowledged, "s id" an insert acknowledged.
func alterChild(db *plrun.DB, iter int64, say func(string, ...any)) {
	ctx := context.Background()
	s := db.Session()
	fail := func(what string, err error) {
		say("err %s: %v", what, err)
		os.Exit(5)
	}
	states := alterStates()
	r, err := s.Query(ctx, "SHOW CREATE TABLE at")
	if err != nil {
		fail("show", err)
	}
	state := stateOf(states, r.Rows[0][1].String())
	if state < 0 {
		fail("state", fmt.Errorf("unknown:\n%s", r.Rows[0][1]))
	}
	for g := 0; g < 4; g++ {
		go func(g int) {
			s := db.Session()
			for n := int64(0); ; n++ {
				id := iter*1_000_000_000 + int64(g)*1_000_000 + n
				if _, err := s.Exec(ctx, "INSERT INTO at (id, v) VALUES (?, ?)", id, id%1000); err != nil {
					fail("insert", err)
				}
				say("s %d", id)
			}
		}(g)
	}
	say("ready")
	for {
		next := (state + 1) % len(alterCycle)
		say("A %d", next)
		if _, err := s.Exec(ctx, alterCycle[state]); err != nil {
			fail("alter", err)
		}
		say("a %d", next)
		state = next
	}
}

// alterStates is SHOW CREATE TABLE at in each state of the cycle, made by
// running the cycle once on a scratch database (parent and child alike).
func alterStates() []string {
	dir, err := os.MkdirTemp("", "altercycle")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	scratch, err := plrun.Open(dir, nil)
	if err != nil {
		panic(err)
	}
	defer scratch.Close()
	ctx := context.Background()
	s := scratch.Session()
	defer s.Close()
	var states []string
	run := func(q string) {
		if _, err := s.Exec(ctx, q); err != nil {
			panic(err)
		}
		r, err := s.Query(ctx, "SHOW CREATE TABLE at")
		if err != nil {
			panic(err)
		}
		states = append(states, r.Rows[0][1].String())
	}
	run(alterBase)
	for _, q := range alterCycle[:len(alterCycle)-1] {
		run(q)
	}
	return states
}
