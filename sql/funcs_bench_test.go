package sql_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
)

// BenchmarkStoredFunctionPerRow is SELECT f(k) FROM t over 100k rows, f a
// stored function computing k + 1 in each language, against the same
// expression inline (SELECT k + 1). One op runs the four SELECTs one after
// the other, so each ratio is measured under the same load on a shared
// machine; it reports the inline cost per row and each language's cost
// per row as a multiple of it (sql-x, lua-x, js-x). Each SELECT starts
// from a collected heap (not timed).
//
//	go test ./sql -run XXX -bench StoredFunctionPerRow -benchtime 5x -count 5 -benchmem
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
	mustExec(b, s, "CREATE FUNCTION f_block(k INT) RETURNS INT DETERMINISTIC BEGIN DECLARE r INT DEFAULT k; SET r = r + 1; RETURN r; END")
	queries := []struct{ name, q string }{
		{"inline", "SELECT k + 1 FROM t"},
		{"sql", "SELECT f_sql(k) FROM t"},
		{"lua", "SELECT f_lua(k) FROM t"},
		{"js", "SELECT f_js(k) FROM t"},
		{"sqlblock", "SELECT f_block(k) FROM t"},
	}
	for _, c := range queries {
		if r := mustExec(b, s, c.q); len(r.Rows) != rows || r.Rows[rows-1][0].String() != fmt.Sprint(rows) {
			b.Fatalf("%s: %d rows, last %v", c.q, len(r.Rows), r.Rows[len(r.Rows)-1])
		}
	}
	spent := make([]time.Duration, len(queries))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j, c := range queries {
			// Start each from a collected heap, so that one query's
			// garbage is not collected on the next one's time.
			b.StopTimer()
			runtime.GC()
			b.StartTimer()
			start := time.Now()
			mustExec(b, s, c.q)
			spent[j] += time.Since(start)
		}
	}
	b.ReportMetric(float64(spent[0].Nanoseconds())/float64(b.N*rows), "inline-ns/row")
	for j, c := range queries[1:] {
		b.ReportMetric(float64(spent[j+1])/float64(spent[0]), c.name+"-x")
	}
}
