package sql_test

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkStoredFunctionPerRow is SELECT f(k) FROM t over 100k rows, f a
// stored function computing k + 1 in each language, against the same
// expression inline (SELECT k + 1). One op is one whole SELECT; ns/row is
// per row. The ratio to "inline" is what a function call costs per row.
//
//	go test ./sql -run XXX -bench StoredFunctionPerRow -benchtime 5x -benchmem
func BenchmarkStoredFunctionPerRow(b *testing.B) {
	const rows = 100_000
	_, s := newHostileSession(b)
	mustExec(b, s, "CREATE TABLE t (k INT PRIMARY KEY)")
	for lo := 0; lo < rows; lo += 1000 {
		var vals []string
		for k := lo; k < lo+1000; k++ {
			vals = append(vals, fmt.Sprintf("(%d)", k))
		}
		mustExec(b, s, "INSERT INTO t VALUES "+strings.Join(vals, ","))
	}
	mustExec(b, s, "CREATE FUNCTION f_sql(k INT) RETURNS INT DETERMINISTIC RETURN k + 1")
	mustExec(b, s, "CREATE FUNCTION f_lua(k INT) RETURNS INT NO SQL LANGUAGE LUA AS $$ return k + 1 $$")
	mustExec(b, s, "CREATE FUNCTION f_js(k INT) RETURNS INT NO SQL LANGUAGE JAVASCRIPT AS $$ return k + 1 $$")
	for _, c := range []struct{ name, q string }{
		{"inline", "SELECT k + 1 FROM t"},
		{"sql", "SELECT f_sql(k) FROM t"},
		{"lua", "SELECT f_lua(k) FROM t"},
		{"js", "SELECT f_js(k) FROM t"},
	} {
		b.Run(c.name, func(b *testing.B) {
			if r := mustExec(b, s, c.q); len(r.Rows) != rows || r.Rows[rows-1][0].String() != fmt.Sprint(rows) {
				b.Fatalf("%s: %d rows, last %v", c.q, len(r.Rows), r.Rows[len(r.Rows)-1])
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				mustExec(b, s, c.q)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*rows), "ns/row")
		})
	}
}
