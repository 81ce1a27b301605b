package sql_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plrun/plrun/engine"
	"github.com/plrun/plrun/runtime/builtin"
)

// BenchmarkLoadData loads a 10,000-line tab-separated file (an INT key, a
// VARCHAR, a DECIMAL, a DATETIME) per op into an emptied table; rows/s is
// LOAD DATA's throughput, and dump_rows/s is SELECT ... INTO OUTFILE's.
func BenchmarkLoadData(b *testing.B) { benchLoadData(b, 10000) }

// BenchmarkLoadData100k is the same with a 100,000-line file.
func BenchmarkLoadData100k(b *testing.B) { benchLoadData(b, 100000) }

func benchLoadData(b *testing.B, rows int) {
	e, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	s := e.NewSession()
	defer s.Close()
	var sb strings.Builder
	for i := 0; i < rows; i++ {
		fmt.Fprintf(&sb, "%d\tname %d with some text\t%d.%02d\t2024-01-%02d 12:00:00\n", i, i, i, i%100, i%28+1)
	}
	dir := b.TempDir()
	file := filepath.Join(dir, "rows.txt")
	if err := os.WriteFile(file, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	mustExec(b, s, "CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(50), amount DECIMAL(12,2), at DATETIME)")
	b.Run("load", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			mustExec(b, s, "TRUNCATE TABLE t")
			b.StartTimer()
			if _, err := s.Exec(ctx, "LOAD DATA INFILE '"+file+"' INTO TABLE t", nil); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(rows*b.N)/b.Elapsed().Seconds(), "rows/s")
	})
	b.Run("outfile", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			out := filepath.Join(dir, fmt.Sprintf("out%d.txt", i))
			if _, err := s.Exec(ctx, "SELECT * FROM t INTO OUTFILE '"+out+"'", nil); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			os.Remove(out)
			b.StartTimer()
		}
		b.ReportMetric(float64(rows*b.N)/b.Elapsed().Seconds(), "dump_rows/s")
	})
}
