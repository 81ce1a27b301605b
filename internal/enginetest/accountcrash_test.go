package enginetest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/plrun/plrun"
	"github.com/plrun/plrun/sql/acl"
	"github.com/plrun/plrun/sqlerr"
)

// The account catalog is durable like a table: an acknowledged CREATE
// USER, GRANT or DROP USER survives a SIGKILL right after its OK.

// TestCrashAccounts SIGKILLs a child that loops CREATE USER, GRANT,
// DROP USER and an occasional CHECKPOINT; after each restart every
// acknowledged account is there with its grant and password hash, and
// every acknowledged DROP is gone.
func TestCrashAccounts(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test skipped in -short mode")
	}
	dir := t.TempDir()
	live, dropped := map[string]bool{}, map[string]bool{}
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 13))
	iterations := crashIterations(6)
	for it := 1; it <= iterations; it++ {
		delay := time.Duration(30+rng.IntN(300)) * time.Millisecond
		lines, stderr := killChild(t, "accounts", dir, it, delay)
		for _, l := range lines {
			f := strings.Fields(l)
			switch {
			case len(f) == 2 && f[0] == "g":
				live[f[1]] = true
			case len(f) == 2 && f[0] == "D":
				delete(live, f[1]) // dropped or not, until its DROP is acknowledged
			case len(f) == 2 && f[0] == "d":
				dropped[f[1]] = true
			case len(f) == 2 && (f[0] == "C" || f[0] == "c" || f[0] == "k"):
			default:
				t.Errorf("iteration %d: child reported %q; stderr:\n%s", it, l, stderr)
			}
		}
		db, err := plrun.Open(dir, nil)
		if err != nil {
			t.Fatalf("iteration %d: reopen after SIGKILL: %v", it, err)
		}
		checkCrashAccounts(t, db, live, dropped)
		db.Close()
		if t.Failed() {
			t.Fatalf("iteration %d (killed %v after ready) failed", it, delay)
		}
	}
	t.Logf("%d SIGKILLs; %d acknowledged accounts found, %d acknowledged drops gone", iterations, len(live), len(dropped))
}

// accountsChild is the child side (mode "accounts"). Lines: "C name" /
// "c name" CREATE USER started / acknowledged, "g name" its GRANT
// acknowledged, "D name" / "d name" a DROP USER started / acknowledged,
// "k n" a checkpoint done.
func accountsChild(db *plrun.DB, iter int64, say func(string, ...any)) {
	ctx := context.Background()
	s := db.Session()
	fail := func(what string, err error) {
		say("err %s: %v", what, err)
		os.Exit(5)
	}
	say("ready")
	for n := 0; ; n++ {
		name := fmt.Sprintf("u_%d_%d", iter, n)
		say("C %s", name)
		if _, err := s.Exec(ctx, "CREATE USER "+name+" IDENTIFIED BY 'pw_"+name+"'"); err != nil {
			fail("create", err)
		}
		say("c %s", name)
		if _, err := s.Exec(ctx, "GRANT SELECT, INSERT ON db_"+name+".* TO "+name); err != nil {
			fail("grant", err)
		}
		say("g %s", name)
		if n%3 == 1 {
			say("D %s", name)
			if _, err := s.Exec(ctx, "DROP USER "+name); err != nil {
				fail("drop", err)
			}
			say("d %s", name)
		}
		if n%10 == 9 {
			if _, err := s.Exec(ctx, "CHECKPOINT"); err != nil {
				fail("checkpoint", err)
			}
			say("k %d", n)
		}
	}
}

func checkCrashAccounts(t *testing.T, db *plrun.DB, live, dropped map[string]bool) {
	t.Helper()
	ctx := context.Background()
	s := db.Session()
	defer s.Close()
	for name := range live {
		r, err := s.Query(ctx, "SHOW GRANTS FOR "+name)
		if err != nil {
			t.Errorf("acknowledged account %s lost: %v", name, err)
			continue
		}
		want := []string{
			"GRANT USAGE ON *.* TO `" + name + "`@`%` IDENTIFIED BY PASSWORD '" + acl.NativeHash("pw_"+name) + "'",
			"GRANT SELECT, INSERT ON `db_" + name + "`.* TO `" + name + "`@`%`",
		}
		var got []string
		for _, row := range r.Rows {
			got = append(got, row[0].String())
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s after the kill:\n%s\nwant:\n%s", name, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	for name := range dropped {
		_, err := s.Query(ctx, "SHOW GRANTS FOR "+name)
		if e, ok := sqlerr.As(err); !ok || e.Code != sqlerr.ErNonexistingGrant {
			t.Errorf("acknowledged DROP USER %s undone after the kill: %v", name, err)
		}
	}
}
