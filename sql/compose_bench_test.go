package sql_test

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// BenchmarkComposedQueries times, over a 100k-row table, a derived table
// (a GROUP BY materialized and joined back by key), a window function
// (ROW_NUMBER and a running SUM per partition) and a recursive CTE of
// 10k rows, and a procedure whose loop reads a derived table (the
// statement is parsed and planned once: each iteration only runs it)
// beside the same loop without the derived table, and a point lookup
// through a view (merged: one row read, not the view's 100k).
// scan-baseline is a plain SELECT of the table, for scale.
// Each reports ns per row of its input.
//
//	go test ./sql -run XXX -bench ComposedQueries -benchtime 5x -count 3 -benchmem
func BenchmarkComposedQueries(b *testing.B) {
	const rows = 100_000
	_, s := newHostileSession(b)
	mustExec(b, s, "CREATE TABLE t (id INT PRIMARY KEY, g INT, v INT)")
	for lo := 0; lo < rows; lo += 1000 {
		var vals []string
		for k := lo; k < lo+1000; k++ {
			vals = append(vals, fmt.Sprintf("(%d,%d,%d)", k, k%100, k%7))
		}
		mustExec(b, s, "INSERT INTO t VALUES "+strings.Join(vals, ","))
	}
	mustExec(b, s, "CREATE PROCEDURE loop_derived(n INT) BEGIN DECLARE i INT DEFAULT 0; DECLARE c INT; "+
		"WHILE i < n DO SELECT COUNT(*) INTO c FROM (SELECT id FROM t WHERE id BETWEEN i AND i + 9) AS d; SET i = i + 1; END WHILE; END")
	mustExec(b, s, "CREATE PROCEDURE loop_plain(n INT) BEGIN DECLARE i INT DEFAULT 0; DECLARE c INT; "+
		"WHILE i < n DO SELECT COUNT(*) INTO c FROM t WHERE id BETWEEN i AND i + 9; SET i = i + 1; END WHILE; END")
	cases := []struct {
		name, q string
		rows    int // rows the query reads, for ns/row
		want    int // rows it returns
	}{
		{"scan-baseline", "SELECT id, g, v FROM t", rows, rows},
		{"derived", "SELECT COUNT(*) FROM t JOIN (SELECT g, SUM(v) AS s FROM t GROUP BY g) AS d ON d.g = t.g WHERE d.s > 0", rows, 1},
		{"window", "SELECT id, ROW_NUMBER() OVER (PARTITION BY g ORDER BY id) AS rn, SUM(v) OVER (PARTITION BY g ORDER BY id) AS run FROM t", rows, rows},
		{"cte-recursive", "WITH RECURSIVE s (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 10000) SELECT COUNT(*) FROM s", 10000, 1},
		{"view-point-lookup", "SELECT g FROM tv WHERE id = 5000", 1, 1},
		{"proc-loop-derived", "CALL loop_derived(1000)", 1000, -1},
		{"proc-loop-plain", "CALL loop_plain(1000)", 1000, -1},
	}
	mustExec(b, s, "CREATE VIEW tv AS SELECT id, g, v FROM t WHERE v >= 0")
	mustExec(b, s, "SET max_recursive_iterations = 100000")
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			r := mustExec(b, s, c.q)
			if c.want >= 0 && len(r.Rows) != c.want {
				b.Fatalf("%s: %d rows, want %d", c.q, len(r.Rows), c.want)
			}
			b.ReportAllocs()
			b.ResetTimer()
			start := time.Now()
			for i := 0; i < b.N; i++ {
				mustExec(b, s, c.q)
			}
			b.ReportMetric(float64(time.Since(start).Nanoseconds())/float64(b.N*c.rows), "ns/row")
		})
	}
}
