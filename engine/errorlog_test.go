package engine_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/plrun/plrun/engine"
	"github.com/plrun/plrun/runtime/builtin"
	"github.com/plrun/plrun/wal"
)

// jsonLog is an error log kept in memory as slog's JSON lines.
type jsonLog struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (l *jsonLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *jsonLog) logger() *slog.Logger { return slog.New(slog.NewJSONHandler(l, nil)) }

// events are the log's lines whose msg is msg.
func (l *jsonLog) events(t *testing.T, msg string) []map[string]any {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []map[string]any
	sc := bufio.NewScanner(strings.NewReader(l.buf.String()))
	for sc.Scan() {
		var ev map[string]any
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("not a JSON line: %q: %v", sc.Text(), err)
		}
		if ev["msg"] == msg {
			out = append(out, ev)
		}
	}
	return out
}

func (l *jsonLog) one(t *testing.T, msg string) map[string]any {
	t.Helper()
	evs := l.events(t, msg)
	if len(evs) != 1 {
		t.Fatalf("%d %q lines, want 1; the log:\n%s", len(evs), msg, l.buf.String())
	}
	return evs[0]
}

// A checkpoint's line, then at the next open after a clean shutdown the
// table store's applied LSN and nothing to replay; a log torn below
// what the store applied opens with the data intact, a warning naming
// both LSNs, and new records after the store's.
func TestErrorLogRecoveryAndCheckpoint(t *testing.T) {
	dir := t.TempDir()
	var first jsonLog
	e, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: dir, Logger: first.logger()})
	if err != nil {
		t.Fatal(err)
	}
	s := e.NewSession()
	run(t, s, "CREATE TABLE t (id INT PRIMARY KEY)", "INSERT INTO t VALUES (1)", "CHECKPOINT")
	ck := first.one(t, "checkpoint")
	if ck["level"] != "INFO" || ck["lsn"].(float64) != 2 || ck["bytes_written"].(float64) <= 0 || ck["duration"] == nil {
		t.Errorf("checkpoint line %v", ck)
	}
	run(t, s, "INSERT INTO t VALUES (2)", "INSERT INTO t VALUES (3)")
	s.Close()
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	var second jsonLog
	e, err = engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: dir, Logger: second.logger()})
	if err != nil {
		t.Fatal(err)
	}
	if ev := second.one(t, "recovery: table store opened"); ev["applied_lsn"].(float64) != 4 {
		t.Errorf("store line %v", ev)
	}
	if n := len(second.events(t, "recovery: log replayed")); n != 0 {
		t.Errorf("%d replay lines after a clean shutdown, want 0:\n%s", n, second.buf.String())
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	tearLastWrite(t, filepath.Join(dir, "wal"))
	var third jsonLog
	e, err = engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: dir, Logger: third.logger()})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if ev := third.one(t, "recovery: cut a torn tail of the log (an unfinished last write)"); ev["level"] != "WARN" || ev["bytes"].(float64) <= 0 {
		t.Errorf("torn tail line %v", ev)
	}
	ev := third.one(t, "recovery: the log ends below the table store's applied LSN; new records continue after it")
	if ev["log_last_lsn"].(float64) != 3 || ev["applied_lsn"].(float64) != 4 {
		t.Errorf("advance line %v", ev)
	}
	s = e.NewSession()
	defer s.Close()
	run(t, s, "INSERT INTO t VALUES (4)")
	if r, err := s.Exec(context.Background(), "SELECT COUNT(*) FROM t", nil); err != nil || r.Rows[0][0].String() != "4" {
		t.Errorf("rows after the reopen: %v %v", r, err)
	}
	if got := e.DurableLSN(); got != 5 {
		t.Errorf("the insert after the reopen got LSN %d, want 5", got)
	}
}

// tearLastWrite cuts the last bytes of the log's last segment, as a crash
// in the middle of its last write leaves it.
func tearLastWrite(t *testing.T, walDir string) {
	t.Helper()
	entries, err := os.ReadDir(walDir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, en := range entries {
		if !en.IsDir() {
			names = append(names, en.Name())
		}
	}
	sort.Strings(names)
	last := filepath.Join(walDir, names[len(names)-1])
	st, err := os.Stat(last)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(last, st.Size()-3); err != nil {
		t.Fatal(err)
	}
}

// A log sync that fails stops the commit pipeline: one ERROR line with
// the cause, whatever number of commits then fail.
func TestErrorLogFailStop(t *testing.T) {
	var log jsonLog
	var fail atomic.Bool
	e, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: t.TempDir(), Logger: log.logger(),
		WalOptions: wal.Options{BeforeSync: func() error {
			if fail.Load() {
				return errors.New("injected: disk gone")
			}
			return nil
		}}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	s := e.NewSession()
	run(t, s, "CREATE TABLE t (id INT PRIMARY KEY)")
	fail.Store(true)
	for i := 0; i < 3; i++ {
		if _, err := s.Exec(context.Background(), "INSERT INTO t VALUES (?)", []any{i}); err == nil {
			t.Fatal("a commit succeeded after the log failed")
		}
	}
	ev := log.one(t, "commit pipeline fail-stop: the log failed, no more commits until a restart recovers the durable prefix")
	if ev["level"] != "ERROR" || ev["op"] != "sync" || !strings.Contains(ev["err"].(string), "disk gone") || ev["durable_lsn"].(float64) != 1 {
		t.Errorf("fail-stop line %v", ev)
	}
}

// KILL names who killed which connection and how; an unknown id is a
// WARN with the refusal.
func TestErrorLogKill(t *testing.T) {
	var log jsonLog
	e, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: t.TempDir(), Logger: log.logger()})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	killer, victim := e.NewSession(), e.NewSession()
	killer.SetClient("ops", "10.0.0.9:4000")
	run(t, killer, fmt.Sprintf("KILL QUERY %d", victim.ID()), fmt.Sprintf("KILL CONNECTION %d", victim.ID()))
	if _, err := killer.Exec(context.Background(), "KILL 999", nil); err == nil {
		t.Fatal("KILL of an unknown id succeeded")
	}
	kills := log.events(t, "KILL")
	if len(kills) != 2 {
		t.Fatalf("%d KILL lines, want 2:\n%s", len(kills), log.buf.String())
	}
	for i, kind := range []string{"QUERY", "CONNECTION"} {
		ev := kills[i]
		if ev["level"] != "INFO" || ev["kind"] != kind || ev["by_id"].(float64) != float64(killer.ID()) ||
			ev["id"].(float64) != float64(victim.ID()) || ev["by_user"] != "ops" || ev["by_host"] != "10.0.0.9:4000" {
			t.Errorf("KILL line %v", ev)
		}
	}
	if ev := log.one(t, "KILL refused"); ev["level"] != "WARN" || ev["id"].(float64) != 999 || !strings.Contains(ev["err"].(string), "Unknown thread id: 999") {
		t.Errorf("refused KILL line %v", ev)
	}
}
