package enginetest

import (
	"context"
	"strconv"
	"testing"

	"github.com/plrun/plrun"
	"github.com/plrun/plrun/sqlerr"
)

// status reads one SHOW GLOBAL STATUS counter.
func status(t *testing.T, s *plrun.Session, name string) int64 {
	t.Helper()
	r, err := s.Exec(context.Background(), "SHOW GLOBAL STATUS LIKE '"+name+"'")
	if err != nil || len(r.Rows) != 1 {
		t.Fatalf("status %s: %v", name, err)
	}
	n, err := strconv.ParseInt(r.Rows[0][1].String(), 10, 64)
	if err != nil {
		t.Fatalf("status %s: %v", name, err)
	}
	return n
}

// TestTemporaryTablesAreNeverDurable: a session's temporary tables, even
// one shadowing a permanent table of its name and written in the same
// transaction as it, never reach the log or a snapshot: after a restart
// the permanent table holds exactly its own rows and the temporary ones
// are gone; a commit that wrote only temporary rows appends nothing.
func TestTemporaryTablesAreNeverDurable(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	_, s, closeAll := openSession(t, dir)
	execAll(t, s,
		"CREATE TABLE p (id INT PRIMARY KEY, v INT)",
		"INSERT INTO p VALUES (1, 1)",
		"CREATE TEMPORARY TABLE tt (id INT PRIMARY KEY)",
		"BEGIN",
		"INSERT INTO p VALUES (2, 2)",
		"INSERT INTO tt VALUES (1), (2)",
		"COMMIT",
		"CHECKPOINT",
	)
	before := status(t, s, "Plrun_last_lsn")
	execAll(t, s,
		"CREATE TEMPORARY TABLE p (id INT PRIMARY KEY, v INT)", // shadows p
		"INSERT INTO p VALUES (99, 99)",
		"UPDATE tt SET id = id + 10",
		"DELETE FROM p",
		"INSERT INTO p VALUES (98, 98)",
	)
	if after := status(t, s, "Plrun_last_lsn"); after != before {
		t.Errorf("commits of temporary rows only moved the log from LSN %d to %d", before, after)
	}
	if n := queryInt64(t, s, "SELECT count(*) FROM p"); n != 1 {
		t.Errorf("the session's temporary p holds %d rows, want 1", n)
	}
	closeAll()
	_, s, closeAll = openSession(t, dir)
	defer closeAll()
	r, err := s.Exec(ctx, "SELECT id, v FROM p ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Rows) != 2 || r.Rows[0][0].String() != "1" || r.Rows[1][0].String() != "2" {
		t.Errorf("permanent p after restart = %v, want rows 1 and 2", r.Rows)
	}
	if _, err := s.Exec(ctx, "SELECT * FROM tt"); errCode(err) != sqlerr.ErNoSuchTable {
		t.Errorf("temporary tt after restart: err = %v, want 1146", err)
	}
	r, err = s.Exec(ctx, "SHOW TABLES")
	if err != nil || len(r.Rows) != 1 {
		t.Errorf("SHOW TABLES after restart = %v, %v; want only p", r, err)
	}
}

func queryInt64(t *testing.T, s *plrun.Session, q string) int64 {
	t.Helper()
	r, err := s.Exec(context.Background(), q)
	if err != nil || len(r.Rows) != 1 {
		t.Fatalf("%s: %v", q, err)
	}
	n, _ := strconv.ParseInt(r.Rows[0][0].String(), 10, 64)
	return n
}
