package sql_test

import (
	"bytes"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/plrun/plrun/engine"
	"github.com/plrun/plrun/runtime/builtin"
	"github.com/plrun/plrun/sql"
	"github.com/plrun/plrun/sqlerr"
)

// logBuffer is an error log a test reads back.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// loggedEngine opens an engine whose error log goes to the returned
// buffer, in slog's text format.
func loggedEngine(t *testing.T) (*engine.Engine, *logBuffer) {
	t.Helper()
	log := &logBuffer{}
	e, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: t.TempDir(),
		Logger: slog.New(slog.NewTextHandler(log, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e, log
}

// engineStatus is SHOW ENGINE name STATUS's one row: its Type and text.
func engineStatus(t *testing.T, s *sql.Session, name string) (string, string) {
	t.Helper()
	r := mustExec(t, s, "SHOW ENGINE "+name+" STATUS")
	if len(r.Rows) != 1 || len(r.Columns) != 3 || r.Columns[0].Name != "Type" || r.Columns[2].Name != "Status" {
		t.Fatalf("SHOW ENGINE %s STATUS: %d rows, columns %v", name, len(r.Rows), r.Columns)
	}
	return r.Rows[0][0].String(), r.Rows[0][2].String()
}

func mustContain(t *testing.T, what, text string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(text, p) {
			t.Errorf("%s lacks %q:\n%s", what, p, text)
		}
	}
}

func trxOf(t *testing.T, reader *sql.Session, s *sql.Session) uint64 {
	t.Helper()
	r := mustExec(t, reader, fmt.Sprintf("SELECT trx_id FROM information_schema.PLRUN_TRX WHERE trx_mysql_thread_id = %d", s.ID()))
	if len(r.Rows) != 1 {
		t.Fatalf("session %d has %d open transactions", s.ID(), len(r.Rows))
	}
	n, _ := strconv.ParseUint(r.Rows[0][0].String(), 10, 64)
	return n
}

// TestShowEngineLockWaits: the report names each waiter and its holder
// (connection, transaction, statement, row), and follows a chain when
// the holder waits too; INNODB STATUS is the same text.
func TestShowEngineLockWaits(t *testing.T) {
	e, _ := loggedEngine(t)
	a, d, w, c := e.NewSession(), e.NewSession(), e.NewSession(), e.NewSession()
	mustExec(t, a, "create table t (id int primary key, v int)")
	mustExec(t, a, "insert into t values (1, 0), (2, 0)")
	mustExec(t, a, "begin")
	mustExec(t, a, "update t set v = 1 where id = 1")
	mustExec(t, d, "begin")
	mustExec(t, d, "update t set v = 1 where id = 2")
	dWaits := goExec(d, "update t set v = 2 where id = 1")
	processState(t, c, d.ID(), is(fmt.Sprintf("waiting for row lock (held by %d)", a.ID())))
	wWaits := goExec(w, "update t set v = 3 where id = 2")
	processState(t, c, w.ID(), is(fmt.Sprintf("waiting for row lock (held by %d)", d.ID())))
	ta, td := trxOf(t, c, a), trxOf(t, c, d)

	typ, text := engineStatus(t, c, "PLRUN")
	if typ != "plrun" {
		t.Errorf("Type = %q, want plrun", typ)
	}
	mustContain(t, "SHOW ENGINE PLRUN STATUS", text,
		"PLRUN MONITOR OUTPUT", "LOCK WAITS", "COMMIT PIPELINE", "CHECKPOINT", "EARLY LOCK RELEASE", "HOT ROW GROUPS",
		fmt.Sprintf("---TRANSACTION %d, connection id %d, waiting ", td, d.ID()),
		"update t set v = 2 where id = 1\nRECORD LOCK index PRIMARY of table `test`.`t` lock_mode X key (1)\n"+
			fmt.Sprintf("held by TRANSACTION %d, connection id %d: (idle)\n", ta, a.ID()),
		fmt.Sprintf(", connection id %d, waiting ", w.ID()),
		"update t set v = 3 where id = 2\nRECORD LOCK index PRIMARY of table `test`.`t` lock_mode X key (2)\n"+
			fmt.Sprintf("held by TRANSACTION %d, connection id %d: update t set v = 2 where id = 1\n  which waits ", td, d.ID()),
		" sec for RECORD LOCK index PRIMARY of table `test`.`t` lock_mode X key (1) held by "+
			fmt.Sprintf("TRANSACTION %d, connection id %d: (idle)\n", ta, a.ID()))
	if !strings.Contains(text, "  which waits ") {
		t.Errorf("no chain in:\n%s", text)
	}
	if strings.Contains(text, "LATEST DETECTED DEADLOCK") {
		t.Errorf("a deadlock section before any deadlock:\n%s", text)
	}
	typ, _ = engineStatus(t, c, "InnoDB")
	if typ != "InnoDB" {
		t.Errorf("SHOW ENGINE INNODB STATUS Type = %q, want InnoDB", typ)
	}

	mustExec(t, a, "rollback")
	mustDone(t, dWaits)
	mustExec(t, d, "commit")
	mustDone(t, wWaits)
	mustExec(t, c, "checkpoint")
	_, text = engineStatus(t, c, "innodb")
	mustContain(t, "the report after the waits and a checkpoint", text, "No transaction is waiting for a row lock",
		"Last checkpoint at LSN 4, ", "Last LSN           4\nDurable LSN        4\n", "4 records in 4 log groups, 1.00 records per group\nLog groups by records: 1: 4\n")
}

// TestDeadlockReportAndLog: a deadlock is the report's LATEST DETECTED
// DEADLOCK and one WARN line of the error log, naming both transactions'
// connections, statements and locks and the one rolled back.
func TestDeadlockReportAndLog(t *testing.T) {
	e, log := loggedEngine(t)
	a, b, c := e.NewSession(), e.NewSession(), e.NewSession()
	mustExec(t, a, "create table t (id int primary key, v int)")
	mustExec(t, a, "insert into t values (1, 0), (2, 0)")
	mustExec(t, a, "begin")
	mustExec(t, a, "update t set v = 1 where id = 1")
	mustExec(t, b, "begin")
	mustExec(t, b, "update t set v = 1 where id = 2")
	ta, tb := trxOf(t, c, a), trxOf(t, c, b)
	bWaits := goExec(b, "update t set v = 2 where id = 1")
	processState(t, c, b.ID(), is(fmt.Sprintf("waiting for row lock (held by %d)", a.ID())))
	_, err := a.Exec(t.Context(), "update t set v = 2 where id = 2", nil)
	if e, ok := sqlerr.As(err); !ok || e.Code != 1213 {
		t.Fatalf("closing the cycle: %v, want 1213", err)
	}
	mustDone(t, bWaits) // a was rolled back: b has row 1
	mustExec(t, b, "commit")

	_, text := engineStatus(t, c, "plrun")
	row := func(k int) string {
		return fmt.Sprintf("RECORD LOCK index PRIMARY of table `test`.`t` lock_mode X key (%d)", k)
	}
	mustContain(t, "SHOW ENGINE PLRUN STATUS", text, "LATEST DETECTED DEADLOCK\n------------------------\n",
		fmt.Sprintf("*** (1) TRANSACTION:\nTRANSACTION %d, connection id %d\nupdate t set v = 2 where id = 2\n", ta, a.ID()),
		"*** (1) HOLDS THE LOCK(S):\n"+row(1)+"\n*** (1) WAITING FOR THIS LOCK TO BE GRANTED:\n"+row(2)+"\n",
		fmt.Sprintf("*** (2) TRANSACTION:\nTRANSACTION %d, connection id %d\nupdate t set v = 2 where id = 1\n", tb, b.ID()),
		"*** (2) HOLDS THE LOCK(S):\n"+row(2)+"\n*** (2) WAITING FOR THIS LOCK TO BE GRANTED:\n"+row(1)+"\n",
		"*** WE ROLL BACK TRANSACTION (1)\n")

	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	var got []string
	for _, l := range lines {
		if strings.Contains(l, "Deadlock found") {
			got = append(got, l)
		}
	}
	if len(got) != 1 {
		t.Fatalf("%d deadlock lines in the log, want 1:\n%s", len(got), log.String())
	}
	mustContain(t, "the deadlock's log line", got[0], "level=WARN",
		fmt.Sprintf("trx1.id=%d trx1.connection=%d trx1.statement=\"update t set v = 2 where id = 2\"", ta, a.ID()),
		fmt.Sprintf("trx1.holds=\"%s\" trx1.waits_for=\"%s\"", row(1), row(2)),
		fmt.Sprintf("trx2.id=%d trx2.connection=%d trx2.statement=\"update t set v = 2 where id = 1\"", tb, b.ID()),
		fmt.Sprintf("rolled_back_trx=%d rolled_back_connection=%d", ta, a.ID()))
}

// TestLockWaitTimeoutLog: a wait that ends in 1205 is one WARN line
// naming the waiter and the holder, their statements and the row.
func TestLockWaitTimeoutLog(t *testing.T) {
	e, log := loggedEngine(t)
	a, b := e.NewSession(), e.NewSession()
	mustExec(t, a, "create table t (id int primary key, v int)")
	mustExec(t, a, "insert into t values (1, 0)")
	mustExec(t, a, "begin")
	mustExec(t, a, "update t set v = 1 where id = 1")
	ta := trxOf(t, b, a)
	mustExec(t, b, "set session innodb_lock_wait_timeout = 1")
	_, err := b.Exec(t.Context(), "update t set v = 2 where id = 1", nil)
	if e, ok := sqlerr.As(err); !ok || e.Code != 1205 {
		t.Fatalf("waiting past the timeout: %v, want 1205", err)
	}
	// The same wait inside a CALL fails the CALL too: logged once.
	mustExec(t, b, "create procedure bump() begin update t set v = 3 where id = 1; end")
	if _, err := b.Exec(t.Context(), "call bump()", nil); err == nil {
		t.Fatal("CALL waiting past the timeout succeeded")
	}
	mustExec(t, a, "rollback")
	var got []string
	for _, l := range strings.Split(log.String(), "\n") {
		if strings.Contains(l, "Lock wait timeout exceeded") {
			got = append(got, l)
		}
	}
	if len(got) != 2 {
		t.Fatalf("%d timeout lines in the log, want 2:\n%s", len(got), log.String())
	}
	mustContain(t, "the CALL's timeout line", got[1], "waiter.statement=\"update t set v = 3 where id = 1\"")
	mustContain(t, "the timeout's log line", got[0], "level=WARN",
		fmt.Sprintf("waiter.connection=%d waiter.statement=\"update t set v = 2 where id = 1\"", b.ID()),
		fmt.Sprintf("holder.trx=%d holder.connection=%d holder.statement=(idle)", ta, a.ID()),
		"table=`test`.`t` index=PRIMARY key=1 waited=")
}
