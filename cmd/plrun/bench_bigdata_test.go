package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/plrun/plrun/bench"
)

// loadSmall runs plrun bench load into a new folder and returns it.
func loadSmall(t *testing.T, args ...string) (dir, stdout, stderr string) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "data")
	status, out, errOut := plrunCLI(t, "", append([]string{"bench", "load", "--data", dir}, args...)...)
	if status != 0 {
		t.Fatalf("bench load %v: status %d\n%s\n%s", args, status, out, errOut)
	}
	return dir, out, errOut
}

// sqlLine runs one query on dir and returns its tab-separated rows.
func sqlLine(t *testing.T, dir, q string) string {
	t.Helper()
	status, out, errOut := plrunCLI(t, "", "--data", dir, "-N", "-e", q)
	if status != 0 {
		t.Fatalf("%s: %s", q, errOut)
	}
	return strings.TrimSpace(out)
}

// The load reports its figures, and the table is sysbench's: 2000 rows
// with ids 1..2000, k in [1, 2000], c and pad of 10 and 5 groups of 11
// digits, the key k_1 on k; an uneven last batch is loaded too.
func TestBenchLoadMakesTheSysbenchTable(t *testing.T) {
	dir, out, errOut := loadSmall(t, "--rows", "2000", "--batch", "300")
	for _, want := range []string{"load: 2000 rows into sbtest.sbtest1, 300-row INSERTs, plrun_cache_size 134217728",
		"rows 2000, ", " rows/s (INSERTs ", "CREATE INDEX k_1 ", "peak RSS ", "CHECKPOINT right after the load ",
		"data folder ", "SELECT COUNT(*): 2000 rows (ok)"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "2000 rows inserted in ") {
		t.Errorf("stderr: %s", errOut)
	}
	got := sqlLine(t, dir, `SELECT COUNT(*), COUNT(DISTINCT id), MIN(id), MAX(id), MIN(k) >= 1, MAX(k) <= 2000,
		COUNT(DISTINCT k) > 1000, SUM(c REGEXP '^([0-9]{11}-){9}[0-9]{11}$'), SUM(pad REGEXP '^([0-9]{11}-){4}[0-9]{11}$'),
		COUNT(DISTINCT c) FROM sbtest.sbtest1`)
	if want := "2000\t2000\t1\t2000\t1\t1\t1\t2000\t2000\t2000"; got != want {
		t.Errorf("the table's rows: got %q, want %q", got, want)
	}
	if got := sqlLine(t, dir, "SELECT COLUMN_NAME FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = 'sbtest' AND INDEX_NAME = 'k_1'"); got != "k" {
		t.Errorf("index k_1 covers %q", got)
	}
}

// bench open reports its fields (--json), finds every row it selects, and
// --cache-size reaches plrun_cache_size with a size suffix.
func TestBenchOpenReportsAndReads(t *testing.T) {
	dir, _, _ := loadSmall(t, "--rows", "1500", "--cache-size", "64M")
	status, out, errOut := plrunCLI(t, "", "bench", "open", "--data", dir, "--selects", "3000", "--cache-size", "96m", "--json")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	var r bench.OpenResult
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if r.CacheSize != "100663296" || r.MaxID != 1500 || r.Selects != 3000 || r.Found != 3000 || !r.Verified ||
		r.OpenSec <= 0 || r.P50Ms <= 0 || r.P99Ms < r.P50Ms || r.CloseSec <= 0 {
		t.Errorf("result: %+v", r)
	}
	if _, err := os.Stat("/proc/self/status"); err == nil && (r.RSSAfterOpen <= 0 || r.PeakRSS < r.RSSAfter) {
		t.Errorf("memory: after open %d, after %d, peak %d", r.RSSAfterOpen, r.RSSAfter, r.PeakRSS)
	}
	status, out, _ = plrunCLI(t, "", "bench", "open", "--data", dir, "--selects", "100")
	for _, want := range []string{"open: sbtest.sbtest1, ids 1..1500, plrun_cache_size 134217728", "open ", "RSS after open ",
		"100 point selects in ", "p50 ", "p99 ", "(ok)", "RSS after the selects ", "close "} {
		if status != 0 || !strings.Contains(out, want) {
			t.Errorf("status %d, stdout lacks %q:\n%s", status, want, out)
		}
	}
}

func TestBenchDataCommandsRefuse(t *testing.T) {
	full, _, _ := loadSmall(t, "--rows", "10")
	empty := t.TempDir()
	emptyDB := newDB(t, "select 1")
	for _, c := range []struct {
		args   []string
		status int
		want   string
	}{
		{[]string{"load"}, 2, "--rows and --batch must be > 0"},
		{[]string{"load", "--rows", "10", "--batch", "0"}, 2, "--rows and --batch must be > 0"},
		{[]string{"load", "--rows", "10", "--data", full}, 1, "is not empty"},
		{[]string{"load", "--rows", "10", "--cache-size", "12X"}, 2, "is not a size"},
		{[]string{"load", "--rows", "10", "--cache-size", "1M"}, 1, "ERROR 1231"},
		{[]string{"load", "--rows", "10", "extra"}, 2, "unexpected argument"},
		{[]string{"open"}, 2, "--data DIR is required"},
		{[]string{"open", "--data", filepath.Join(empty, "none")}, 1, "no data folder at"},
		{[]string{"open", "--data", empty}, 1, "is empty: no database to open"},
		{[]string{"open", "--data", emptyDB}, 1, "holds no sysbench table"},
		{[]string{"dirty"}, 2, "--data DIR is required"},
		{[]string{"dirty", "--data", full, "--log-mb", "0"}, 2, "must be > 0"},
		{[]string{"dirty", "--data", empty}, 1, "is empty: no database to open"},
		{[]string{"dirty", "--data", emptyDB}, 1, "holds no sysbench table"},
	} {
		status, _, errOut := plrunCLI(t, "", append([]string{"bench"}, c.args...)...)
		if status != c.status || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: status %d, stderr %q; want %d and %q", c.args, status, errOut, c.status, c.want)
		}
	}
	// a load with no --data cleans up its temporary folder, unless --keep,
	// which names it
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	if status, _, errOut := plrunCLI(t, "", "bench", "load", "--rows", "10"); status != 0 {
		t.Fatal(errOut)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("temporary folder left: %v", left)
	}
	status, _, errOut := plrunCLI(t, "", "bench", "load", "--rows", "10", "--keep")
	kept, _ := filepath.Glob(filepath.Join(tmp, "plrun-bench-load-*"))
	if status != 0 || len(kept) != 1 || !strings.Contains(errOut, "data folder kept at "+kept[0]) {
		t.Fatalf("--keep: status %d, folders %v, stderr %q", status, kept, errOut)
	}
	if got := sqlLine(t, kept[0], "SELECT COUNT(*) FROM sbtest.sbtest1"); got != "10" {
		t.Errorf("the kept folder holds %s rows", got)
	}
}

// benchHelperEnv makes TestBenchHelperProcess run plrun with these
// arguments (separated by newlines) in a process of its own.
const benchHelperEnv = "PLRUN_TEST_BENCH_ARGS"

func TestBenchHelperProcess(t *testing.T) {
	args := os.Getenv(benchHelperEnv)
	if args == "" {
		t.Skip("runs only as bench dirty's crashing process")
	}
	os.Exit(run(strings.Split(args, "\n"), strings.NewReader(""), os.Stdout, os.Stderr))
}

// bench dirty kills its own process with SIGKILL once the log holds
// --log-mb; bench open then replays that log, and every update it had
// acknowledged is in the table.
func TestBenchDirtyCrashesAndOpenRecovers(t *testing.T) {
	dir, _, _ := loadSmall(t, "--rows", "2000")
	cmd := exec.Command(os.Args[0], "-test.run=^TestBenchHelperProcess$")
	cmd.Env = append(os.Environ(), benchHelperEnv+"="+strings.Join([]string{"bench", "dirty", "--data", dir, "--log-mb", "1", "--threads", "4", "--timeout", "60s", "--json"}, "\n"))
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		t.Fatalf("bench dirty: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	if ws, ok := exit.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("bench dirty ended with %v, not SIGKILL\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "SIGKILL now, 4 sessions still updating") {
		t.Errorf("stderr: %s", stderr.String())
	}
	var d bench.DirtyResult
	if err := json.Unmarshal([]byte(stdout.String()), &d); err != nil {
		t.Fatalf("%v: %q", err, stdout.String())
	}
	if d.LogBytes < 1<<20 || d.Updates <= 0 || d.Failed != 0 || d.MaxID != 2000 || d.Threads != 4 {
		t.Errorf("dirty result: %+v", d)
	}
	status, out, errOut := plrunCLI(t, "", "bench", "open", "--data", dir, "--selects", "200", "--json")
	if status != 0 {
		t.Fatalf("open after the crash: %s", errOut)
	}
	var o bench.OpenResult
	if err := json.Unmarshal([]byte(out), &o); err != nil {
		t.Fatal(err)
	}
	if o.LogBytes < 1<<20 || !o.Verified {
		t.Errorf("open after the crash: %+v", o)
	}
	got := strings.Fields(sqlLine(t, dir, "SELECT COUNT(*), SUM(k) FROM sbtest.sbtest1"))
	sum, _ := strconv.ParseInt(got[len(got)-1], 10, 64)
	if got[0] != "2000" || sum < d.KSumBefore+d.Updates {
		t.Errorf("after recovery: rows %s, SUM(k) %d; want 2000 rows and SUM(k) >= %d + %d acknowledged", got[0], sum, d.KSumBefore, d.Updates)
	}
}
