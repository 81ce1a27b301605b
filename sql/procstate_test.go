package sql_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plrun/plrun/engine"
	"github.com/plrun/plrun/runtime/builtin"
	"github.com/plrun/plrun/sql"
	"github.com/plrun/plrun/wal"
)

// syncGate holds the log's syncs back while closed (wal.Options'
// fault-injection hook), so a commit stays waiting for durability as long
// as a test needs to look at it.
type syncGate struct {
	mu     sync.Mutex
	closed bool
	open   chan struct{}
}

func (g *syncGate) close() {
	g.mu.Lock()
	g.closed, g.open = true, make(chan struct{})
	g.mu.Unlock()
}

func (g *syncGate) release() {
	g.mu.Lock()
	if g.closed {
		g.closed = false
		close(g.open)
	}
	g.mu.Unlock()
}

func (g *syncGate) beforeSync() error {
	g.mu.Lock()
	closed, open := g.closed, g.open
	g.mu.Unlock()
	if closed {
		<-open
	}
	return nil
}

// stateEngine opens an engine whose log syncs pass gate.
func stateEngine(t *testing.T, gate *syncGate, settings map[string]string) *engine.Engine {
	t.Helper()
	e, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: t.TempDir(), Settings: settings,
		WalOptions: wal.Options{BeforeSync: gate.beforeSync}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { gate.release(); e.Close() })
	return e
}

// goExec runs q on s in the background; the channel gets its error.
func goExec(s *sql.Session, q string) chan error {
	done := make(chan error, 1)
	go func() {
		_, err := s.Exec(context.Background(), q, nil)
		done <- err
	}()
	return done
}

// processState reads session id's State as a third session sees it, in
// information_schema.PROCESSLIST and in SHOW FULL PROCESSLIST (both must
// agree), polling until match accepts it or a generous deadline passes
// (no timing is asserted: the deadline only ends a broken test).
func processState(t *testing.T, reader *sql.Session, id uint64, match func(string) bool) string {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	last := ""
	for time.Now().Before(deadline) {
		r := mustExec(t, reader, fmt.Sprintf("SELECT STATE, COMMAND FROM information_schema.PROCESSLIST WHERE ID = %d", id))
		if len(r.Rows) == 1 {
			last = r.Rows[0][0].String()
			if match(last) {
				show := mustExec(t, reader, "SHOW FULL PROCESSLIST")
				for _, row := range show.Rows {
					if row[0].String() == fmt.Sprint(id) && match(row[6].String()) {
						return last
					}
				}
			}
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("session %d never reached the expected State (last %q)", id, last)
	return ""
}

func is(want string) func(string) bool { return func(s string) bool { return s == want } }

func mustDone(t *testing.T, done chan error) {
	t.Helper()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestProcesslistRowLockState: a statement waiting for a row lock shows
// "waiting for row lock (held by N)" with the holder's connection id; the
// holder, idle in its transaction, shows no State (Command Sleep).
func TestProcesslistRowLockState(t *testing.T) {
	e := stateEngine(t, &syncGate{}, nil)
	a, b, c := e.NewSession(), e.NewSession(), e.NewSession()
	defer a.Close()
	defer b.Close()
	defer c.Close()
	mustExec(t, a, "create table t (id int primary key, v int)")
	mustExec(t, a, "insert into t values (1, 0), (2, 0)")
	mustExec(t, a, "begin")
	mustExec(t, a, "update t set v = 1 where id = 1")
	done := goExec(b, "update t set v = 2 where id = 1")
	processState(t, c, b.ID(), is(fmt.Sprintf("waiting for row lock (held by %d)", a.ID())))
	if got := processState(t, c, a.ID(), func(string) bool { return true }); got != "" {
		t.Errorf("idle holder's State = %q, want empty", got)
	}
	// a chain: c's SELECT ... FOR UPDATE waits for b, which waits for a
	d := e.NewSession()
	defer d.Close()
	mustExec(t, d, "begin")
	locked := goExec(d, "select * from t where id = 1 for update")
	processState(t, c, d.ID(), func(s string) bool { return strings.HasPrefix(s, "waiting for row lock (held by ") })
	mustExec(t, a, "rollback")
	mustDone(t, done)
	mustDone(t, locked)
	mustExec(t, d, "rollback")
	processState(t, c, b.ID(), is(""))
}

// TestProcesslistExecutingState: a running statement is "executing";
// after it, the session is idle with no State.
func TestProcesslistExecutingState(t *testing.T) {
	e := stateEngine(t, &syncGate{}, nil)
	a, c := e.NewSession(), e.NewSession()
	defer a.Close()
	defer c.Close()
	done := goExec(a, "select sleep(1000)")
	processState(t, c, a.ID(), is("executing"))
	a.Interrupt(true)
	<-done
	processState(t, c, a.ID(), is(""))
}

// TestProcesslistLogSyncStates: a commit whose log sync is held back is
// "waiting for log sync"; under ELR the next writer of the row, which
// took it before that commit was durable, is "waiting for ELR
// dependents" until the commit it read from is durable.
func TestProcesslistLogSyncStates(t *testing.T) {
	gate := &syncGate{}
	e := stateEngine(t, gate, nil)
	a, b, c := e.NewSession(), e.NewSession(), e.NewSession()
	defer a.Close()
	defer b.Close()
	defer c.Close()
	mustExec(t, a, "create table t (id int primary key, v int)")
	mustExec(t, a, "insert into t values (1, 0)")

	gate.close()
	done := goExec(a, "update t set v = v + 1 where id = 1")
	processState(t, c, a.ID(), is("waiting for log sync"))
	gate.release()
	mustDone(t, done)

	mustExec(t, c, "set global enable_early_lock_release = ON")
	gate.close()
	first := goExec(a, "update t set v = v + 1 where id = 1")
	processState(t, c, a.ID(), is("waiting for log sync"))
	second := goExec(b, "update t set v = v + 1 where id = 1")
	processState(t, c, b.ID(), is("waiting for ELR dependents"))
	gate.release()
	mustDone(t, first)
	mustDone(t, second)
	if r := mustExec(t, c, "select v from t where id = 1"); r.Rows[0][0].String() != "3" {
		t.Fatalf("v = %s, want 3", r.Rows[0][0])
	}

	// Past _max_elr_dependent_trx_count the next holder of the row waits,
	// holding it, for the earlier commits to become durable.
	mustExec(t, c, "set global _max_elr_dependent_trx_count = 1")
	gate.close()
	first = goExec(a, "update t set v = v + 1 where id = 1")
	processState(t, c, a.ID(), is("waiting for log sync"))
	mustExec(t, b, "begin")
	second = goExec(b, "update t set v = v + 1 where id = 1")
	processState(t, c, b.ID(), is("waiting for ELR dependents"))
	r := mustExec(t, c, "SHOW ENGINE PLRUN STATUS")
	if text := r.Rows[0][2].String(); !strings.Contains(text, fmt.Sprintf(", connection id %d, waiting ", b.ID())) ||
		!strings.Contains(text, " sec for its ELR dependents to become durable:\nupdate t set v = v + 1 where id = 1\n"+
			"RECORD LOCK index PRIMARY of table `test`.`t` lock_mode X key (1), held by it\n") {
		t.Errorf("the dependent wait is not in the report:\n%s", text)
	}
	gate.release()
	mustDone(t, first)
	mustDone(t, second)
	mustExec(t, b, "commit")
}

// TestProcesslistHotRowStates: a hot-row group's leader, waiting for the
// row lock for its group, and a follower waiting in the group show
// "in hot-row group (leader)" and "(follower)".
func TestProcesslistHotRowStates(t *testing.T) {
	e := stateEngine(t, &syncGate{}, map[string]string{"hotspot": "ON"})
	a, b, f, c := e.NewSession(), e.NewSession(), e.NewSession(), e.NewSession()
	defer a.Close()
	defer b.Close()
	defer f.Close()
	defer c.Close()
	mustExec(t, a, "create table inv (id int primary key, q int)")
	mustExec(t, a, "insert into inv values (1, 100)")
	const hinted = "update /*+ COMMIT_ON_SUCCESS ROLLBACK_ON_FAIL TARGET_AFFECT_ROW(1) */ inv set q = q - 1 where id = 1"
	mustExec(t, a, "begin")
	mustExec(t, a, "update inv set q = q - 1 where id = 1")
	leader := goExec(b, hinted)
	processState(t, c, b.ID(), is(fmt.Sprintf("in hot-row group (leader), waiting for row lock (held by %d)", a.ID())))
	follower := goExec(f, hinted)
	processState(t, c, f.ID(), is("in hot-row group (follower)"))
	mustExec(t, a, "commit")
	mustDone(t, leader)
	mustDone(t, follower)
	if r := mustExec(t, c, "select q from inv"); r.Rows[0][0].String() != "97" {
		t.Fatalf("q = %s, want 97", r.Rows[0][0])
	}
}
