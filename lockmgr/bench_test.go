package lockmgr

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkHotKey measures acquire+release of one key by many goroutines, the
// ob_elr.py shape (50 threads updating id=1). Reports ops/s and latency
// percentiles of one acquire+release.
func BenchmarkHotKey(b *testing.B) {
	for _, parallel := range []int{1, 8, 64, 512} {
		b.Run(fmt.Sprintf("parallel=%d", parallel), func(b *testing.B) {
			m := New(Options{})
			key := Key("42/1")
			ctx := context.Background()
			var next atomic.Int64
			var nextTxn atomic.Uint64
			hists := make([]latencyHistogram, parallel)
			b.ReportAllocs()
			b.ResetTimer()
			start := time.Now()
			var wg sync.WaitGroup
			for g := 0; g < parallel; g++ {
				wg.Add(1)
				go func(h *latencyHistogram) {
					defer wg.Done()
					for next.Add(1) <= int64(b.N) {
						txn := TxnID(nextTxn.Add(1))
						t0 := time.Now()
						if err := m.Acquire(ctx, txn, key); err != nil {
							b.Error(err)
							return
						}
						m.ReleaseAll(txn)
						h.record(time.Since(t0))
					}
				}(&hists[g])
			}
			wg.Wait()
			elapsed := time.Since(start)
			b.StopTimer()
			var total latencyHistogram
			for i := range hists {
				total.merge(&hists[i])
			}
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "ops/s")
			b.ReportMetric(float64(total.quantile(0.50).Nanoseconds()), "p50-ns")
			b.ReportMetric(float64(total.quantile(0.95).Nanoseconds()), "p95-ns")
			b.ReportMetric(float64(total.quantile(0.99).Nanoseconds()), "p99-ns")
		})
	}
}

// latencyHistogram buckets durations with 8 sub-buckets per power of two
// (about 9% resolution), so recording never allocates.
type latencyHistogram struct {
	counts [64 * 8]uint64
	n      uint64
}

func (h *latencyHistogram) record(d time.Duration) {
	ns := uint64(max(d, 1))
	exp := bits.Len64(ns) - 1
	sub := uint64(0)
	if exp >= 3 {
		sub = (ns >> (exp - 3)) & 7
	}
	h.counts[exp*8+int(sub)]++
	h.n++
}

func (h *latencyHistogram) merge(o *latencyHistogram) {
	for i, c := range o.counts {
		h.counts[i] += c
	}
	h.n += o.n
}

// quantile returns the upper bound of the bucket holding quantile q.
func (h *latencyHistogram) quantile(q float64) time.Duration {
	want := uint64(math.Ceil(q * float64(h.n)))
	var seen uint64
	for i, c := range h.counts {
		seen += c
		if seen >= want && c > 0 {
			exp, sub := i/8, uint64(i%8)
			if exp < 3 {
				return time.Duration(uint64(1) << exp)
			}
			return time.Duration((8 + sub + 1) << (exp - 3))
		}
	}
	return 0
}
