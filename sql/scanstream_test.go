package sql_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/plrun/plrun/sql"
)

// scanRows makes t (id, v) of 2,000 rows (v = id) and reopens the engine,
// so that no row is resident: every scan reads the table store, a chunk
// after another.
func scanRows(t *testing.T) (*harness, *sql.Session) {
	h := newHarness(t, t.TempDir())
	t.Cleanup(h.close)
	s := h.e.NewSession()
	var ins strings.Builder
	ins.WriteString("INSERT INTO t VALUES ")
	for i := 1; i <= 2000; i++ {
		if i > 1 {
			ins.WriteByte(',')
		}
		fmt.Fprintf(&ins, "(%d,%d)", i, i)
	}
	mustExecAll(t, s, "CREATE TABLE t (id INT PRIMARY KEY, v INT NOT NULL)", ins.String())
	s.Close()
	h.close()
	h.open()
	return h, h.e.NewSession()
}

// mustExecAll runs statements that must succeed.
func mustExecAll(t *testing.T, s *sql.Session, qs ...string) {
	t.Helper()
	for _, q := range qs {
		mustExec(t, s, q)
	}
}

// rowsOf runs q and returns its rows, a line each, values tab-separated.
func rowsOf(t *testing.T, s *sql.Session, q string) string {
	t.Helper()
	r, err := s.Exec(context.Background(), q, nil)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	var lines []string
	for _, row := range r.Rows {
		var vals []string
		for _, v := range row {
			vals = append(vals, v.String())
		}
		lines = append(lines, strings.Join(vals, "\t"))
	}
	return strings.Join(lines, "\n")
}

// TestScanLimitStops: a LIMIT without ORDER BY (and an ORDER BY the
// primary key serves) stops the scan once it has its rows, whatever the
// filter; what needs every row (aggregates, windows, DISTINCT,
// SQL_CALC_FOUND_ROWS, a DESC order the scan cannot read backwards)
// still sees every row.
func TestScanLimitStops(t *testing.T) {
	_, s := scanRows(t)
	for _, c := range []struct {
		q, want  string
		examined int // -1: every row
	}{
		{"SELECT id FROM t LIMIT 3", "1\n2\n3", 3},
		{"SELECT id FROM t LIMIT 2 OFFSET 600", "601\n602", 602},
		{"SELECT id FROM t WHERE v % 100 = 7 LIMIT 3", "7\n107\n207", 207},
		{"SELECT id FROM t WHERE v % 100 = 7 LIMIT 1, 2", "107\n207", 207},
		{"SELECT id FROM t WHERE id > 1500 LIMIT 2", "1501\n1502", 3}, // from 1500: bounds are inclusive
		{"SELECT id FROM t WHERE id BETWEEN 300 AND 900 AND v % 10 = 1 LIMIT 2", "301\n311", 12},
		{"SELECT id FROM t WHERE v % 100 = 7 ORDER BY id LIMIT 2", "7\n107", 107},
		{"SELECT id FROM t WHERE v % 100 = 7 ORDER BY id DESC LIMIT 2", "1907\n1807", -1},
		{"SELECT id FROM t WHERE v > 2100 LIMIT 5", "", -1},
		{"SELECT COUNT(*) FROM t LIMIT 1", "2000", -1},
		{"SELECT id, COUNT(*) OVER () FROM t ORDER BY id LIMIT 2", "1\t2000\n2\t2000", -1},
		{"SELECT id, COUNT(*) OVER () FROM t LIMIT 1", "1\t2000", -1},
		{"SELECT DISTINCT v % 3 FROM t LIMIT 2", "1\n2", -1},
		{"SELECT id FROM t LIMIT 0", "", 0},
		{"SELECT id FROM t ORDER BY id LIMIT 0", "", 0},
	} {
		if got := rowsOf(t, s, c.q); got != c.want {
			t.Errorf("%s:\n%s\nwant\n%s", c.q, got, c.want)
		}
		want := uint64(c.examined)
		if c.examined < 0 {
			want = 2000
		}
		if s.RowsExamined != want {
			t.Errorf("%s: %d rows examined, want %d", c.q, s.RowsExamined, want)
		}
	}
	if got := rowsOf(t, s, "SELECT SQL_CALC_FOUND_ROWS id FROM t LIMIT 1"); got != "1" {
		t.Errorf("SQL_CALC_FOUND_ROWS: %s", got)
	}
	if got := rowsOf(t, s, "SELECT FOUND_ROWS()"); got != "2000" {
		t.Errorf("FOUND_ROWS() = %s, want 2000", got)
	}
}

// TestScanFunctionWrites: a stored function the filter calls may write
// the table being scanned (MariaDB refuses that with 1442; plrun allows
// it): the scan, which reads a chunk at a time, still reads the rows as
// they were when it began — it does not read the rows the function
// inserts (a function inserting ahead of the scan would feed it forever),
// and reads a row the function updated or deleted ahead of it as it was.
func TestScanFunctionWrites(t *testing.T) {
	_, s := scanRows(t)
	mustExecAll(t, s,
		"CREATE FUNCTION grow(x INT) RETURNS INT BEGIN INSERT INTO t VALUES (x + 100000, 0); RETURN 1; END",
		"CREATE FUNCTION bump(x INT) RETURNS INT BEGIN UPDATE t SET v = v + 10000 WHERE id = x + 900; RETURN 1; END",
		"CREATE FUNCTION del(x INT) RETURNS INT BEGIN DELETE FROM t WHERE id = x + 700 OR id = 2001 - x; RETURN 1; END")
	for _, c := range []struct{ q, want string }{
		{"SELECT COUNT(*), SUM(v) FROM t WHERE grow(id) = 1", "2000\t2001000"},
		{"SELECT COUNT(*), SUM(v) FROM t WHERE bump(id) = 1", "2000\t2001000"},
		{"SELECT COUNT(*), SUM(v) FROM t WHERE del(id) = 1", "2000\t2001000"},
		{"SELECT COUNT(*), SUM(v) FROM t WHERE id BETWEEN 500 AND 1500 AND del(id) = 1", "1001\t1001000"},
		{"SELECT COUNT(*) FROM t a JOIN t b ON b.id = a.id WHERE grow(a.id + 200000) = 1", "2000"},
	} {
		mustExec(t, s, "BEGIN")
		if got := rowsOf(t, s, c.q); got != c.want {
			t.Errorf("%s:\n%s\nwant\n%s", c.q, got, c.want)
		}
		after := rowsOf(t, s, "SELECT COUNT(*) FROM t")
		mustExec(t, s, "ROLLBACK")
		if strings.Contains(c.q, "grow") && after != "4000" || strings.Contains(c.q, "bump") && after != "2000" {
			t.Errorf("%s: %s rows after it", c.q, after)
		}
	}
	// the transaction's own earlier writes are seen, and kept as they were
	mustExecAll(t, s, "BEGIN", "UPDATE t SET v = 0 WHERE id = 1950", "DELETE FROM t WHERE id = 1960")
	if got := rowsOf(t, s, "SELECT COUNT(*), SUM(v) FROM t WHERE bump(id) = 1 AND del(id - 10) = 1"); got != "1999\t1997090" {
		t.Errorf("with earlier writes: %s", got)
	}
	mustExec(t, s, "ROLLBACK")
}

// TestWriteLimitStops: UPDATE and DELETE with a LIMIT and no ORDER BY
// stop the scan at their last row, so they lock no row after it: a row
// another transaction holds beyond it does not make them wait.
func TestWriteLimitStops(t *testing.T) {
	h, s := scanRows(t)
	other := h.e.NewSession()
	defer other.Close()
	mustExecAll(t, other, "BEGIN", "UPDATE t SET v = v WHERE id = 1907")
	mustExecAll(t, s, "SET innodb_lock_wait_timeout = 1")
	for _, c := range []struct {
		q        string
		affected uint64
		examined uint64
	}{
		{"UPDATE t SET v = v + 1 WHERE v % 100 = 7 LIMIT 3", 3, 207},
		{"DELETE FROM t WHERE v % 100 = 7 LIMIT 2", 2, 407}, // 7, 107, 207 are 8, 108, 208 now
		{"DELETE FROM t WHERE v % 100 = 8 LIMIT 0", 0, 0},
	} {
		r := mustExec(t, s, c.q)
		if r.AffectedRows != c.affected || s.RowsExamined != c.examined {
			t.Errorf("%s: %d rows affected, %d examined; want %d, %d", c.q, r.AffectedRows, s.RowsExamined, c.affected, c.examined)
		}
	}
	if got := rowsOf(t, s, "SELECT id, v FROM t WHERE id IN (7, 107, 207, 307, 407, 507) ORDER BY id"); got != "7\t8\n107\t108\n207\t208\n507\t507" {
		t.Errorf("after the writes:\n%s", got)
	}
	// the row held is still waited for when the LIMIT reaches it
	if _, err := s.Exec(context.Background(), "UPDATE t SET v = v + 1 WHERE v % 100 = 7 LIMIT 20", nil); err == nil || !strings.Contains(err.Error(), "1205") {
		t.Errorf("UPDATE reaching the held row: %v, want 1205", err)
	}
	mustExec(t, other, "ROLLBACK")
}
