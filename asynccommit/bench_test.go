package asynccommit

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plrun/plrun/wal"
)

// BenchmarkCommitPipeline measures Append+WaitDurable from parallel
// committers: sync=true is mode 1 (fsync per group), sync=false mode 2 (ack
// on write). It reports commits/s, the latency percentiles of one commit,
// commits per fsync and, for reading the figures, the disk's median fsync.
func BenchmarkCommitPipeline(b *testing.B) {
	fsync, err := MeasureFsync(b.TempDir(), 21)
	if err != nil {
		b.Fatal(err)
	}
	for _, sync := range []bool{false, true} {
		for _, parallel := range []int{1, 4, 16, 64} {
			b.Run(fmt.Sprintf("sync=%t/parallel=%d", sync, parallel), func(b *testing.B) {
				mode := 2
				if sync {
					mode = 1
				}
				runCommitBench(b, parallel, mode, fsync)
			})
		}
	}
}

// BenchmarkCommitPipelineWaiters is the many-sessions case: a thousand
// committers parked in WaitDurable at once, all woken by one notify channel
// per group. Run it with -benchtime of several thousand x so every committer
// commits more than once.
func BenchmarkCommitPipelineWaiters(b *testing.B) {
	fsync, err := MeasureFsync(b.TempDir(), 21)
	if err != nil {
		b.Fatal(err)
	}
	for _, parallel := range []int{1024} {
		b.Run(fmt.Sprintf("sync=true/parallel=%d", parallel), func(b *testing.B) {
			runCommitBench(b, parallel, 1, fsync)
		})
	}
}

func runCommitBench(b *testing.B, parallel, mode int, fsync time.Duration) {
	log, err := wal.Open(b.TempDir(), wal.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer log.Close()
	p := Open(log, Options{FlushMode: func() int { return mode }})
	defer p.Close()
	payload := make([]byte, 128)
	latency := make([]time.Duration, b.N)
	var next atomic.Int64
	var wg sync.WaitGroup
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for g := 0; g < parallel; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= int64(b.N) {
					return
				}
				t0 := time.Now()
				lsn, err := p.Append(wal.KindCommit, payload)
				if err == nil {
					err = p.WaitDurable(ctx, lsn)
				}
				if err != nil {
					b.Error(err)
					return
				}
				latency[i] = time.Since(t0)
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	slices.Sort(latency)
	pct := func(q float64) float64 {
		return float64(latency[int(q*float64(len(latency)-1))].Nanoseconds()) / 1e3
	}
	st := p.Stats()
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "commits/s")
	b.ReportMetric(pct(0.50), "p50-us")
	b.ReportMetric(pct(0.95), "p95-us")
	b.ReportMetric(pct(0.99), "p99-us")
	if st.Syncs > 0 {
		b.ReportMetric(float64(st.Commits)/float64(st.Syncs), "commits/sync")
	}
	b.ReportMetric(float64(fsync.Nanoseconds())/1e3, "fsync-p50-us")
}

// BenchmarkAppend measures the serialized step alone (LSN + framing into the
// queue) under contention, with the writer draining in mode 2.
func BenchmarkAppend(b *testing.B) {
	log, err := wal.Open(b.TempDir(), wal.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer log.Close()
	p := Open(log, Options{FlushMode: func() int { return 2 }})
	defer p.Close()
	payload := make([]byte, 128)
	b.ReportAllocs()
	b.SetParallelism(8)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := p.Append(wal.KindCommit, payload); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
