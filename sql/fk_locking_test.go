package sql_test

import (
	"context"
	"testing"
	"time"

	"github.com/plrun/plrun/engine"
	"github.com/plrun/plrun/sql"
	"github.com/plrun/plrun/sqlerr"
)

// waitForWaiter returns once some statement waits for a row lock (or
// fails the test if none does for a long while: that is a missing lock).
func waitForWaiter(t *testing.T, e *engine.Engine) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for e.Database().Txns.Locks.Stats().CurrentWaiters == 0 {
		if time.Now().After(deadline) {
			t.Fatal("no statement waits for a lock")
		}
		time.Sleep(time.Millisecond)
	}
}

// execAsync runs q on s in a goroutine; the channel gets its error.
func execAsync(s *sql.Session, q string) chan error {
	done := make(chan error, 1)
	go func() {
		_, err := s.Exec(context.Background(), q, nil)
		done <- err
	}()
	return done
}

func codeOf(err error) uint16 {
	if e, ok := sqlerr.As(err); ok {
		return e.Code
	}
	return 0
}

// TestForeignKeyLocksTheParent: a child row inserted by a transaction not
// yet committed holds its parent, so another transaction's DELETE of the
// parent waits and then fails with 1451 (never leaving an orphan); and a
// parent deleted by a transaction not yet committed makes a child insert
// wait, then fail with 1452 if the delete commits or succeed if it rolls
// back. (InnoDB's shared lock on the parent row; plrun takes the
// exclusive one, see package constraint.)
func TestForeignKeyLocksTheParent(t *testing.T) {
	e, a := openWith(t,
		"CREATE TABLE p (id INT PRIMARY KEY)",
		"CREATE TABLE c (id INT PRIMARY KEY, pid INT, FOREIGN KEY (pid) REFERENCES p(id))",
		"INSERT INTO p VALUES (1), (2), (3)")
	b := e.NewSession()
	defer b.Close()
	ctx := context.Background()
	mustExec := func(s *sql.Session, q string) {
		t.Helper()
		if _, err := s.Exec(ctx, q, nil); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}

	mustExec(a, "BEGIN")
	mustExec(a, "INSERT INTO c VALUES (1, 1)")
	del := execAsync(b, "DELETE FROM p WHERE id = 1")
	waitForWaiter(t, e)
	mustExec(a, "COMMIT")
	if err := <-del; codeOf(err) != sqlerr.ErRowIsReferenced2 {
		t.Fatalf("DELETE of a parent whose child committed meanwhile: %v, want 1451", err)
	}

	for _, end := range []string{"COMMIT", "ROLLBACK"} {
		id := map[string]string{"COMMIT": "2", "ROLLBACK": "3"}[end]
		mustExec(b, "BEGIN")
		mustExec(b, "DELETE FROM p WHERE id = "+id)
		ins := execAsync(a, "INSERT INTO c VALUES (1"+id+", "+id+")")
		waitForWaiter(t, e)
		mustExec(b, end)
		err := <-ins
		if end == "COMMIT" && codeOf(err) != sqlerr.ErNoReferencedRow2 {
			t.Errorf("child insert after its parent's delete committed: %v, want 1452", err)
		}
		if end == "ROLLBACK" && err != nil {
			t.Errorf("child insert after its parent's delete rolled back: %v", err)
		}
	}
}
