package sql_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/plrun/plrun/engine"
	"github.com/plrun/plrun/runtime/builtin"
	"github.com/plrun/plrun/sql"
)

// rowsText is a result's rows, one line each, values tab-separated.
func rowsText(t *testing.T, s *sql.Session, q string) string {
	t.Helper()
	r := mustExec(t, s, q)
	var b strings.Builder
	for _, row := range r.Rows {
		vals := make([]string, len(row))
		for i, v := range row {
			vals[i] = v.String()
		}
		b.WriteString(strings.Join(vals, "\t") + "\n")
	}
	return b.String()
}

// TestPlrunLockViews: a transaction holding a row lock and one waiting
// for it appear in PLRUN_LOCKS, PLRUN_LOCK_WAITS and PLRUN_TRX with their
// sessions, and are gone once the holder commits.
func TestPlrunLockViews(t *testing.T) {
	e, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	holder, waiter, watcher := e.NewSession(), e.NewSession(), e.NewSession()
	defer holder.Close()
	defer waiter.Close()
	defer watcher.Close()
	mustExec(t, holder, "CREATE TABLE t (id int PRIMARY KEY, name varchar(10) UNIQUE, v int)")
	mustExec(t, holder, "INSERT INTO t VALUES (1, 'one', 0), (2, 'two', 0)")
	mustExec(t, holder, "BEGIN")
	mustExec(t, holder, "UPDATE t SET v = v + 1 WHERE id IN (1, 2)")

	if got, want := rowsText(t, watcher, "SELECT lock_trx_id > 0, lock_session_id, lock_mode, lock_type, lock_table, lock_index, lock_data, lock_status, wait_started FROM information_schema.PLRUN_LOCKS ORDER BY lock_data"),
		fmt.Sprintf("1\t%d\tX\tRECORD\t`test`.`t`\tPRIMARY\t1\tGRANTED\tNULL\n1\t%[1]d\tX\tRECORD\t`test`.`t`\tPRIMARY\t2\tGRANTED\tNULL\n", holder.ID()); got != want {
		t.Fatalf("PLRUN_LOCKS while held:\n%s\nwant:\n%s", got, want)
	}
	if got, want := rowsText(t, watcher, fmt.Sprintf("SELECT trx_state, trx_rows_modified, trx_isolation_level, trx_is_read_only, trx_started <= NOW() FROM information_schema.PLRUN_TRX WHERE trx_mysql_thread_id = %d", holder.ID())),
		"RUNNING\t2\tREPEATABLE READ\t0\t1\n"; got != want {
		t.Fatalf("PLRUN_TRX of the holder: %q, want %q", got, want)
	}

	done := make(chan error, 1)
	go func() {
		_, err := waiter.Exec(context.Background(), "UPDATE t SET v = 10 WHERE id = 2", nil)
		done <- err
	}()
	// Wait until the waiter is queued and its wait fully published (no
	// timing is asserted: a row read while the waiter is being queued may
	// be partial, so the loop waits for the whole row).
	q := "SELECT requesting_session_id, blocking_session_id, lock_table, lock_index, lock_data, requesting_trx_id <> blocking_trx_id, wait_seconds >= 0 FROM information_schema.PLRUN_LOCK_WAITS"
	want := fmt.Sprintf("%d\t%d\t`test`.`t`\tPRIMARY\t2\t1\t1\n", waiter.ID(), holder.ID())
	var got string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if got = rowsText(t, watcher, q); got == want {
			break
		}
	}
	if got != want {
		t.Fatalf("PLRUN_LOCK_WAITS: %q, want %q", got, want)
	}
	if got, want := rowsText(t, watcher, fmt.Sprintf("SELECT trx_state, trx_requested_lock_id IS NOT NULL, trx_query FROM information_schema.PLRUN_TRX WHERE trx_mysql_thread_id = %d", waiter.ID())),
		"LOCK WAIT\t1\tUPDATE t SET v = 10 WHERE id = 2\n"; got != want {
		t.Fatalf("PLRUN_TRX of the waiter: %q, want %q", got, want)
	}
	if got, want := rowsText(t, watcher, "SELECT lock_status, COUNT(*) FROM information_schema.PLRUN_LOCKS WHERE lock_data = '2' GROUP BY lock_status ORDER BY 1"),
		"GRANTED\t1\nWAITING\t1\n"; got != want {
		t.Fatalf("PLRUN_LOCKS with a waiter: %q, want %q", got, want)
	}

	mustExec(t, holder, "COMMIT")
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"PLRUN_LOCKS", "PLRUN_LOCK_WAITS", "PLRUN_TRX WHERE trx_mysql_thread_id <> CONNECTION_ID()"} {
		if got := rowsText(t, watcher, "SELECT * FROM information_schema."+v); got != "" {
			t.Fatalf("%s after commit: %q", v, got)
		}
	}
}

// TestPlrunLocksUniqueKey: an INSERT's unique-key lock names its index and
// value.
func TestPlrunLocksUniqueKey(t *testing.T) {
	e, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	s, w := e.NewSession(), e.NewSession()
	defer s.Close()
	defer w.Close()
	mustExec(t, s, "CREATE TABLE u (id varchar(10) PRIMARY KEY, name varchar(10) UNIQUE)")
	mustExec(t, s, "BEGIN")
	mustExec(t, s, "INSERT INTO u VALUES ('Seven', 'Sieben')")
	// the primary key's own values; a unique key's as the key holds them
	// (case folded)
	if got, want := rowsText(t, w, "SELECT lock_index, lock_data FROM information_schema.PLRUN_LOCKS ORDER BY lock_index"),
		"name\t'SIEBEN'\nPRIMARY\t'Seven'\n"; got != want {
		t.Fatalf("PLRUN_LOCKS of an insert: %q, want %q", got, want)
	}
	mustExec(t, s, "ROLLBACK")
}
