package enginetest

import (
	"bufio"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/plrun/plrun"
	"github.com/plrun/plrun/storage/kv"
)

// upgradeFixture is a data folder of the format before the table store
// (a snapshot and log records after it), made by the previous binary;
// its README says how.
const upgradeFixture = "../../testdata/upgrade/v1"

// The fixture's tables and rows, as the upgrade's log line must count
// them: digits 10, customers 999, orders 2978, attachments 5, audit 7,
// notes 2.
const (
	fixtureTables = 6
	fixtureRows   = 4001
)

// fixtureCheck is one query of check.sql and the previous binary's
// output for it (batch mode, no column names).
type fixtureCheck struct {
	query string
	want  []string
}

// readFixtureChecks parses expected.txt: "> query" lines, each followed
// by its result rows.
func readFixtureChecks(t *testing.T) []fixtureCheck {
	t.Helper()
	f, err := os.Open(filepath.Join(upgradeFixture, "expected.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var checks []fixtureCheck
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		l := sc.Text()
		if q, ok := strings.CutPrefix(l, "> "); ok {
			checks = append(checks, fixtureCheck{query: q})
			continue
		}
		if len(checks) == 0 {
			t.Fatalf("expected.txt: a result line before the first query: %q", l)
		}
		c := &checks[len(checks)-1]
		c.want = append(c.want, l)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(checks) < 30 {
		t.Fatalf("expected.txt holds %d queries; the fixture has more", len(checks))
	}
	return checks
}

// batchEscaper is the REPL's batch-mode escaping (cmd/plrun), which the
// expected output was printed with.
var batchEscaper = strings.NewReplacer("\\", `\\`, "\t", `\t`, "\n", `\n`, "\x00", `\0`)

// resultLines renders a result as the REPL's batch mode prints it.
func resultLines(r *plrun.Result) []string {
	var lines []string
	for _, row := range r.Rows {
		cells := make([]string, len(row))
		for i, v := range row {
			if v.IsNull() {
				cells[i] = "NULL"
			} else {
				cells[i] = batchEscaper.Replace(v.String())
			}
		}
		lines = append(lines, strings.Join(cells, "\t"))
	}
	return lines
}

// runFixtureChecks runs every check (those keep says to) and reports
// each result that differs from the previous binary's.
func runFixtureChecks(t *testing.T, s *plrun.Session, when string, checks []fixtureCheck, keep func(string) bool) {
	t.Helper()
	ctx := context.Background()
	if _, err := s.Exec(ctx, "SET time_zone = '+00:00'"); err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, c := range checks {
		if keep != nil && !keep(c.query) {
			continue
		}
		ran++
		r, err := s.Query(ctx, c.query)
		if err != nil {
			t.Errorf("%s: %s: %v", when, c.query, err)
			continue
		}
		got := resultLines(r)
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s: %s:\ngot:\n%s\nwant (the previous binary's):\n%s", when, c.query, strings.Join(got, "\n"), strings.Join(c.want, "\n"))
		}
	}
	if ran == 0 {
		t.Fatalf("%s: no check ran", when)
	}
}

// copyFixture copies the fixture's data folder into a new temporary one.
func copyFixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	copyDir(t, filepath.Join(upgradeFixture, "data"), dir)
	return dir
}

// snapshotFiles lists the snapshot files of the format before the store.
func snapshotFiles(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "snapshot-*"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// storeInitialized opens the table store of dir on its own (the engine
// closed) and reports whether it carries the format marker.
func storeInitialized(t *testing.T, dir string) bool {
	t.Helper()
	s, err := kv.Open(filepath.Join(dir, "store"), kv.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ok, err := s.Initialized()
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

// logBuf is an error log the test reads.
type logBuf struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *logBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// openLogged opens dir with an error log at INFO and the smallest cache
// (4 MiB of resident rows, under the fixture's): a reopened folder holds
// no row resident, and what writes make resident is evicted again, so
// the checks read the store.
func openLogged(t *testing.T, dir string) (*plrun.DB, *logBuf) {
	t.Helper()
	lb := &logBuf{}
	db, err := plrun.Open(dir, &plrun.Options{
		Settings: map[string]string{"plrun_cache_size": "8M"},
		Logger:   slog.New(slog.NewTextHandler(lb, nil)),
	})
	if err != nil {
		t.Fatalf("open %s: %v", dir, err)
	}
	return db, lb
}
