package engine_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/plrun/plrun/engine"
	"github.com/plrun/plrun/runtime/builtin"
)

// BenchmarkPointSelectQueryLogs: what the general and slow query logs
// cost a point select: off (the default), the slow log on with no
// statement slow enough, and each log writing every statement.
//
//	go test ./engine -run XXX -bench PointSelectQueryLogs -benchmem
func BenchmarkPointSelectQueryLogs(b *testing.B) {
	for _, c := range []struct {
		name     string
		settings map[string]string
	}{
		{"logs=off", nil},
		{"slow=on/none-slow", map[string]string{"slow_query_log": "ON"}},
		{"slow=on/every-statement", map[string]string{"slow_query_log": "ON", "long_query_time": "0"}},
		{"general=on", map[string]string{"general_log": "ON"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			e, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: b.TempDir(), Settings: c.settings})
			if err != nil {
				b.Fatal(err)
			}
			defer e.Close()
			s := e.NewSession()
			defer s.Close()
			ctx := context.Background()
			run(b, s, "CREATE TABLE t (id INT PRIMARY KEY, k INT)")
			queries := make([]string, 1000)
			for i := range queries {
				run(b, s, fmt.Sprintf("INSERT INTO t VALUES (%d, %d)", i+1, i))
				queries[i] = fmt.Sprintf("SELECT k FROM t WHERE id = %d", i+1)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := s.Exec(ctx, queries[i%len(queries)], nil); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			e.QueryLogs().Sync()
			b.ReportMetric(float64(e.QueryLogs().Dropped())/float64(b.N), "dropped/op")
		})
	}
}

// BenchmarkScanRowsExamined: a statement that reads a whole table, whose
// rows the slow log's Rows_examined counts (one add per scan, per row
// looked up).
//
//	go test ./engine -run XXX -bench ScanRowsExamined -benchmem
func BenchmarkScanRowsExamined(b *testing.B) {
	e, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	s := e.NewSession()
	defer s.Close()
	run(b, s, "CREATE TABLE t (id INT PRIMARY KEY, k INT)")
	for i := 0; i < 10000; i += 500 {
		q := "INSERT INTO t VALUES "
		for j := i; j < i+500; j++ {
			if j > i {
				q += ","
			}
			q += fmt.Sprintf("(%d, %d)", j+1, j%7)
		}
		run(b, s, q)
	}
	b.Run("scan", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			run(b, s, "SELECT COUNT(*) FROM t WHERE k = 3")
		}
	})
	b.Run("join-by-key", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			run(b, s, "SELECT COUNT(*) FROM t x JOIN t y ON y.id = x.k + 1 WHERE x.id <= 1000")
		}
	})
}
