package sql_test

import (
	"context"
	"testing"
	"time"

	"github.com/plrun/plrun/engine"
	"github.com/plrun/plrun/sql"
	"github.com/plrun/plrun/txn"

	"github.com/plrun/plrun/lockmgr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
)

// TestPanicInStatementLeavesNoLocks: a statement that panics after its
// autocommit transaction took a row lock, inside a BEGIN that holds
// another, must release the engine worker and both locks before the panic
// reaches the server; the panic arrives as a *PanicError with its stack.
func TestPanicInStatementLeavesNoLocks(t *testing.T) {
	e, s := openWith(t, "CREATE TABLE t (id INT PRIMARY KEY, k INT)", "INSERT INTO t VALUES (1, 0), (2, 0)")
	ctx := context.Background()
	for _, q := range []string{"BEGIN", "UPDATE t SET k = 1 WHERE id = 1"} {
		if _, err := s.Exec(ctx, q, nil); err != nil {
			t.Fatal(err)
		}
	}
	tab := e.Database().Txns.Catalog().Table("test", "t")
	var got any
	func() {
		defer func() { got = recover() }()
		if err := e.AcquireWorker(ctx); err != nil {
			t.Fatal(err)
		}
		s.ExecHoldingWorker(func(x *txn.Txn) {
			if err := x.Lock(ctx, tab, storage.KeyOf([]types.Value{types.IntValue(2)})); err != nil {
				t.Fatal(err)
			}
			panic("injected")
		})
	}()
	pe, ok := got.(*sql.PanicError)
	if !ok || pe.Value != "injected" || len(pe.Stack) == 0 {
		t.Fatalf("recovered %#v, want *PanicError{injected} with a stack", got)
	}
	if n := workersBusy(e); n != "0" {
		t.Fatalf("%s workers busy after the panic, want 0", n)
	}
	if s.InTransaction() {
		t.Fatal("the session's transaction is still open after the panic")
	}
	other := e.NewSession()
	defer other.Close()
	lctx := lockmgr.WithLockWaitTimeout(ctx, 200*time.Millisecond)
	for _, q := range []string{"UPDATE t SET k = 5 WHERE id = 1", "UPDATE t SET k = 5 WHERE id = 2"} {
		if _, err := other.Exec(lctx, q, nil); err != nil {
			t.Fatalf("%s after the panic: %v (a lock outlived it)", q, err)
		}
	}
}

// TestResetClearsTransactionTraits: COM_RESET_CONNECTION (Session.Reset)
// forgets a one-shot SET TRANSACTION and the session's sql_mode, as MySQL's
// reset does.
func TestResetClearsTransactionTraits(t *testing.T) {
	_, s := openWith(t)
	ctx := context.Background()
	for _, q := range []string{"SET TRANSACTION READ ONLY", "SET SESSION sql_mode = 'ANSI_QUOTES'"} {
		if _, err := s.Exec(ctx, q, nil); err != nil {
			t.Fatal(err)
		}
	}
	s.Reset()
	if _, err := s.Exec(ctx, "CREATE TABLE t (id INT PRIMARY KEY)", nil); err != nil {
		t.Fatalf("after Reset the one-shot READ ONLY still applies: %v", err)
	}
	r, err := s.Exec(ctx, "SELECT \"x\" AS v", nil)
	if err != nil || r.Rows[0][0].String() != "x" {
		t.Fatalf("after Reset ANSI_QUOTES still applies: %v", err)
	}
}

// workersBusy is the engine's Plrun_workers_busy status.
func workersBusy(e *engine.Engine) string {
	for _, r := range e.Status() {
		if r[0] == "Plrun_workers_busy" {
			return r[1]
		}
	}
	return "?"
}

// TestCloseAndResetDropTemporaryTables: a session's temporary tables end
// with it (disconnect) and with Reset (COM_RESET_CONNECTION,
// COM_CHANGE_USER): their storage is marked dropped and the name resolves
// to nothing (or the permanent table again).
func TestCloseAndResetDropTemporaryTables(t *testing.T) {
	e, s := openWith(t, "CREATE TEMPORARY TABLE tt (id INT PRIMARY KEY)", "INSERT INTO tt VALUES (1)")
	_ = e
	tt := s.TempTable("test", "tt")
	if tt == nil {
		t.Fatal("no temporary table tt after CREATE TEMPORARY TABLE")
	}
	s.Reset()
	if !tt.Dropped() || s.TempTable("test", "tt") != nil {
		t.Errorf("Reset kept temporary table tt")
	}
	if _, err := s.Exec(context.Background(), "CREATE TEMPORARY TABLE tt (id INT)", nil); err != nil {
		t.Fatal(err)
	}
	tt = s.TempTable("test", "tt")
	s.Close()
	if !tt.Dropped() {
		t.Errorf("Close kept temporary table tt")
	}
}
