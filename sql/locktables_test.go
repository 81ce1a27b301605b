package sql_test

import (
	"context"
	"testing"
	"time"

	"github.com/plrun/plrun/engine"
	"github.com/plrun/plrun/runtime/builtin"
	"github.com/plrun/plrun/sql"
	"github.com/plrun/plrun/sqlerr"
)

// waitState waits until s's PROCESSLIST State is state: the statement is
// blocked on a table lock (no timing is asserted).
func waitState(t *testing.T, s *sql.Session, state string) {
	t.Helper()
	for i := 0; s.Info().State != state; i++ {
		if i > 30000 {
			t.Fatalf("session never reached state %q (now %q)", state, s.Info().State)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestTableLockWaiters: a statement blocked by another session's table
// lock or global read lock goes on at UNLOCK TABLES, at the holder's
// disconnect, and stops at KILL QUERY.
func TestTableLockWaiters(t *testing.T) {
	e, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	a, b := e.NewSession(), e.NewSession()
	defer b.Close()
	mustExec(t, a, "create table t (id int primary key)")

	run := func(q string) chan error {
		done := make(chan error, 1)
		go func() {
			_, err := b.Exec(context.Background(), q, nil)
			done <- err
		}()
		return done
	}
	steps := []struct {
		lock, blocked, release, state string
	}{
		{"lock tables t write", "select * from t", "unlock tables", "Waiting for table metadata lock"},
		{"lock tables t read", "insert into t values (1)", "unlock tables", "Waiting for table metadata lock"},
		{"flush tables with read lock", "insert into t values (2)", "unlock tables", "Waiting for table metadata lock"},
		{"flush tables with read lock", "create table u (a int)", "unlock tables", "Waiting for table metadata lock"},
	}
	for _, st := range steps {
		mustExec(t, a, st.lock)
		done := run(st.blocked)
		waitState(t, b, st.state)
		mustExec(t, a, st.release)
		if err := <-done; err != nil {
			t.Fatalf("%s after %s: %v", st.blocked, st.release, err)
		}
	}

	// A waiter stops at KILL QUERY.
	mustExec(t, a, "lock tables t write")
	done := run("select * from t")
	waitState(t, b, "Waiting for table metadata lock")
	b.Interrupt(true)
	if err := <-done; err == nil {
		t.Fatalf("a killed wait succeeded")
	} else if e, ok := sqlerr.As(err); !ok || e.Code != 1317 {
		t.Fatalf("killed wait: %v, want 1317", err)
	}

	// The holder's disconnect releases its locks.
	done = run("insert into t values (3)")
	waitState(t, b, "Waiting for table metadata lock")
	a.Close()
	if err := <-done; err != nil {
		t.Fatalf("insert after the holder disconnected: %v", err)
	}

	// LOCK TABLES waits for another session's running statement to end.
	c := e.NewSession()
	defer c.Close()
	mustExec(t, c, "lock tables t read")
	done = run("lock tables t write")
	waitState(t, b, "Waiting for table metadata lock")
	mustExec(t, c, "unlock tables")
	if err := <-done; err != nil {
		t.Fatalf("lock tables write after unlock: %v", err)
	}
	mustExec(t, b, "unlock tables")
}

// TestLockTablesWaitsForTransactions: LOCK TABLES t WRITE waits for
// another session's open transaction that read t and goes on at its
// COMMIT; while it waits, that transaction may go on reading t (it holds
// it), but writing t would wait for the locker, which waits for it: the
// transaction is the deadlock's victim (1213) and is rolled back, and the
// locker goes on, as in MariaDB.
func TestLockTablesWaitsForTransactions(t *testing.T) {
	e, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	a, b := e.NewSession(), e.NewSession()
	defer a.Close()
	defer b.Close()
	mustExec(t, a, "create table t (id int primary key)")
	mustExec(t, a, "insert into t values (1)")
	lock := func() chan error {
		done := make(chan error, 1)
		go func() {
			_, err := b.Exec(context.Background(), "lock tables t write", nil)
			done <- err
		}()
		waitState(t, b, "Waiting for table metadata lock")
		return done
	}

	mustExec(t, a, "begin")
	mustExec(t, a, "select * from t")
	done := lock()
	mustExec(t, a, "select * from t") // held by its transaction: no wait
	mustExec(t, a, "commit")
	if err := <-done; err != nil {
		t.Fatalf("lock tables after the reader's commit: %v", err)
	}
	mustExec(t, b, "unlock tables")

	mustExec(t, a, "begin")
	mustExec(t, a, "select * from t")
	done = lock()
	_, err = a.Exec(context.Background(), "insert into t values (2)", nil)
	if e, ok := sqlerr.As(err); !ok || e.Code != 1213 {
		t.Fatalf("write under a pending LOCK TABLES: %v, want 1213", err)
	}
	if a.InTransaction() {
		t.Fatal("the deadlock victim's transaction is still open")
	}
	if err := <-done; err != nil {
		t.Fatalf("lock tables after the victim's rollback: %v", err)
	}
	mustExec(t, b, "unlock tables")
	r, err := a.Exec(context.Background(), "select count(*) from t", nil)
	if err != nil || r.Rows[0][0].String() != "1" {
		t.Fatalf("after the rollback: %v %v", r, err)
	}
}
