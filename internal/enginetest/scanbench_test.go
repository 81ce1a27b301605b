package enginetest

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plrun/plrun"
)

// The scan benchmarks read a sysbench-shaped table on pebble with
// plrun_cache_size at its minimum (8M), opened afresh so that no row is
// resident: every row a statement reads comes from the store. Run them
// with
//
//	go test ./internal/enginetest -run '^$' -bench 'BenchmarkScan' -benchtime 20x
//
// PLRUN_SCANBENCH_DIR keeps the loaded folders between runs (loaded once,
// then only read), so that two builds can be compared on the same data.

const scanCache = "8388608" // 8M, the setting's minimum

// BenchmarkScanFilter reads a 200,000-row table: a filter matching 1% of
// the rows (a full scan), a LIMIT 10 without a filter, and a LIMIT 10 of
// that filter (both must stop reading once they have their rows); then
// ORDER BY ... LIMIT 10 by the primary key backwards and by KEY k.
func BenchmarkScanFilter(b *testing.B) {
	db := openScanTable(b, 200_000)
	ctx := context.Background()
	s := db.Session()
	defer s.Close()
	for _, bc := range []struct {
		name, query string
		rows        int
	}{
		{"filter-1pct", "SELECT id FROM sbtest WHERE k % 100 = 7", 2000},
		{"limit-10", "SELECT id, c FROM sbtest LIMIT 10", 10},
		{"filter-limit-10", "SELECT id, c FROM sbtest WHERE k % 100 = 7 LIMIT 10", 10},
		// what the storage's reads do not yet stop early: a scan read
		// backwards, a secondary index read in order
		{"id-desc-limit-10", "SELECT id, c FROM sbtest ORDER BY id DESC LIMIT 10", 10},
		{"k-order-limit-10", "SELECT id, c FROM sbtest ORDER BY k LIMIT 10", 10},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				r, err := s.Query(ctx, bc.query)
				if err != nil {
					b.Fatal(err)
				}
				if len(r.Rows) != bc.rows {
					b.Fatalf("%s: %d rows, want %d", bc.query, len(r.Rows), bc.rows)
				}
			}
		})
	}
}

// BenchmarkScanPeakHeap counts, over PLRUN_SCAN_ROWS rows (default
// 1,000,000), the rows whose c holds an x (one in a hundred) with a full
// scan, sampling the heap in use meanwhile: peak-heap-MB is the most seen
// while the statement ran, base-heap-MB what was in use before it.
func BenchmarkScanPeakHeap(b *testing.B) {
	rows := 1_000_000
	if v, err := strconv.Atoi(os.Getenv("PLRUN_SCAN_ROWS")); err == nil && v > 0 {
		rows = v
	}
	db := openScanTable(b, rows)
	ctx := context.Background()
	s := db.Session()
	defer s.Close()
	var peak, base uint64
	for i := 0; i < b.N; i++ {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		base = max(base, ms.HeapInuse)
		sampled := sampleHeap()
		r, err := s.Query(ctx, "SELECT COUNT(*) FROM sbtest WHERE c LIKE '%x%'")
		peak = max(peak, sampled())
		if err != nil {
			b.Fatal(err)
		}
		if got := r.Rows[0][0].String(); got != strconv.Itoa(rows/100) {
			b.Fatalf("count %s, want %d", got, rows/100)
		}
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(base)/(1<<20), "base-heap-MB")
}

// sampleHeap samples HeapInuse every 2 ms until the returned function is
// called, which returns the largest value seen.
func sampleHeap() func() uint64 {
	var peak atomic.Uint64
	var wg sync.WaitGroup
	stop := make(chan struct{})
	sample := func() {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		if ms.HeapInuse > peak.Load() {
			peak.Store(ms.HeapInuse)
		}
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				sample()
			}
		}
	}()
	return func() uint64 {
		close(stop)
		wg.Wait()
		sample()
		return peak.Load()
	}
}

// openScanTable opens a folder holding sbtest (id, k, c CHAR(120), pad
// CHAR(60), KEY k) of rows rows with the cache at 8M, loading it first
// when the folder is new, and closing and reopening it then so that no
// row is resident.
func openScanTable(b *testing.B, rows int) *plrun.DB {
	b.Helper()
	dir := b.TempDir()
	if keep := os.Getenv("PLRUN_SCANBENCH_DIR"); keep != "" {
		dir = filepath.Join(keep, "sbtest-"+strconv.Itoa(rows))
	}
	opts := &plrun.Options{Settings: map[string]string{"plrun_cache_size": scanCache}}
	done := filepath.Join(dir, "loaded-by-scanbench")
	if _, err := os.Stat(done); err != nil {
		if err := os.RemoveAll(dir); err != nil {
			b.Fatal(err)
		}
		db, err := plrun.Open(dir, opts)
		if err != nil {
			b.Fatal(err)
		}
		loadScanTable(b, db, rows)
		if err := db.Close(); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(done, nil, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	db, err := plrun.Open(dir, opts)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return db
}

// loadScanTable inserts the rows, 1,000 per statement: k spreads the ids
// over the table, and one c in a hundred holds an x.
func loadScanTable(b *testing.B, db *plrun.DB, rows int) {
	b.Helper()
	ctx := context.Background()
	s := db.Session()
	defer s.Close()
	if _, err := s.Exec(ctx, "CREATE TABLE sbtest (id INT PRIMARY KEY, k INT NOT NULL, c CHAR(120) NOT NULL, pad CHAR(60) NOT NULL, KEY k (k))"); err != nil {
		b.Fatal(err)
	}
	const batch = 1000
	var sb strings.Builder
	for lo := 0; lo < rows; lo += batch {
		sb.Reset()
		sb.WriteString("INSERT INTO sbtest VALUES ")
		for i := lo; i < min(lo+batch, rows); i++ {
			if i > lo {
				sb.WriteByte(',')
			}
			n := strconv.Itoa(i)
			mark := "0"
			if i%100 == 42 {
				mark = "x"
			}
			sb.WriteString("(" + n + "," + strconv.Itoa(i*7919%rows) + ",'" + n + "-" + mark + strings.Repeat("-0123456789", 10) + "','pad-" + n + "-0123456789-0123456789')")
		}
		if _, err := s.Exec(ctx, sb.String()); err != nil {
			b.Fatal(err)
		}
	}
}
