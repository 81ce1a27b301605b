package sql_test

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkTimestampRead is the cost of TIMESTAMP following time_zone: a
// column read over 100k rows of DATETIME (no conversion) beside TIMESTAMP
// under time_zone SYSTEM (stored UTC, read in the local zone) and '+05:00',
// and TIME and YEAR columns. It reports ns per row.
//
//	go test ./sql -run XXX -bench TimestampRead -benchtime 5x -count 3 -benchmem
func BenchmarkTimestampRead(b *testing.B) {
	const rows = 100_000
	_, s := newHostileSession(b)
	mustExec(b, s, "CREATE TABLE t (k INT PRIMARY KEY, dt DATETIME, ts TIMESTAMP NULL, tm TIME, y YEAR)")
	for lo := 0; lo < rows; lo += 1000 {
		var vals []string
		for k := lo; k < lo+1000; k++ {
			vals = append(vals, fmt.Sprintf("(%d, '2024-01-01' + INTERVAL %d MINUTE, '2024-01-01' + INTERVAL %d MINUTE, SEC_TO_TIME(%d), %d)", k, k, k, k, 1901+k%255))
		}
		mustExec(b, s, "INSERT INTO t VALUES "+strings.Join(vals, ","))
	}
	for _, c := range []struct{ name, zone, q string }{
		{"datetime", "SYSTEM", "SELECT dt FROM t"},
		{"timestamp/system", "SYSTEM", "SELECT ts FROM t"},
		{"timestamp/offset", "+05:00", "SELECT ts FROM t"},
		{"time", "SYSTEM", "SELECT tm FROM t"},
		{"year", "SYSTEM", "SELECT y FROM t"},
	} {
		b.Run(c.name, func(b *testing.B) {
			mustExec(b, s, "SET time_zone = '"+c.zone+"'")
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
