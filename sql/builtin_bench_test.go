package sql_test

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkBuiltinPerRow is a built-in function over 100k rows, one
// sub-benchmark each, beside the bare column read: DATE_FORMAT of a
// DATETIME column, and REGEXP with a constant pattern (compiled once) on
// a VARCHAR column. It reports ns per row.
//
//	go test ./sql -run XXX -bench BuiltinPerRow -benchtime 5x -count 3 -benchmem
func BenchmarkBuiltinPerRow(b *testing.B) {
	const rows = 100_000
	_, s := newHostileSession(b)
	mustExec(b, s, "CREATE TABLE t (k INT PRIMARY KEY, ts DATETIME, s VARCHAR(40))")
	for lo := 0; lo < rows; lo += 1000 {
		var vals []string
		for k := lo; k < lo+1000; k++ {
			vals = append(vals, fmt.Sprintf("(%d, '2024-01-01' + INTERVAL %d MINUTE, 'user%d@example.com')", k, k, k))
		}
		mustExec(b, s, "INSERT INTO t VALUES "+strings.Join(vals, ","))
	}
	for _, c := range []struct{ name, q string }{
		{"column", "SELECT ts FROM t"},
		{"date_format", "SELECT DATE_FORMAT(ts, '%Y-%m-%d %H:%i:%s %W') FROM t"},
		{"regexp", "SELECT s REGEXP '^user[0-9]+5@example' FROM t"},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if r := mustExec(b, s, c.q); len(r.Rows) != rows {
					b.Fatalf("%d rows", len(r.Rows))
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*rows), "ns/row")
		})
	}
}
