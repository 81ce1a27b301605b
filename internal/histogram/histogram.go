package histogram

import (
	"math/bits"
	"sync/atomic"
	"time"
)

// MaxBuckets bounds the finite buckets of a Histogram.
const MaxBuckets = 40

// Histogram counts observations of a non-negative quantity (nanoseconds,
// a group's size) into exponential buckets. The zero value is not usable;
// call New. A Histogram must not be copied after first use.
type Histogram struct {
	base   uint64
	n      int                           // finite buckets; counts[n] is +Inf
	counts [MaxBuckets + 1]atomic.Uint64 // not cumulative
	sum    atomic.Uint64
}

// New returns a histogram whose finite upper bounds are base, 2*base, ...,
// base<<(n-1). It panics on a base of 0 or n outside 1..MaxBuckets (a
// programming error, fixed at compile time by every caller).
func New(base uint64, n int) *Histogram {
	if base == 0 || n < 1 || n > MaxBuckets {
		panic("histogram: base must be > 0 and buckets in 1..40")
	}
	return &Histogram{base: base, n: n}
}

// NewDuration is New for durations observed in nanoseconds, from first to
// first<<(n-1).
func NewDuration(first time.Duration, n int) *Histogram { return New(uint64(first), n) }

// bucket is the index of the first bucket whose upper bound is >= v.
func (h *Histogram) bucket(v uint64) int {
	if v <= h.base {
		return 0
	}
	// base<<(i-1) < v <= base<<i  <=>  i = bitlen((v-1)/base) for v > base.
	i := bits.Len64((v - 1) / h.base)
	return min(i, h.n)
}

// Observe records one observation of v.
func (h *Histogram) Observe(v uint64) {
	h.counts[h.bucket(v)].Add(1)
	h.sum.Add(v)
}

// ObserveDuration records d (a negative d counts as 0).
func (h *Histogram) ObserveDuration(d time.Duration) { h.Observe(uint64(max(d, 0))) }

// Since records the time elapsed since start.
func (h *Histogram) Since(start time.Time) { h.ObserveDuration(time.Since(start)) }

// Snapshot is a histogram's state at one moment.
type Snapshot struct {
	// Bounds are the finite buckets' upper bounds, ascending, in the
	// observed unit.
	Bounds []uint64
	// Counts has one more element than Bounds (the +Inf bucket); each is
	// that bucket's own count, not cumulative.
	Counts []uint64
	Count  uint64 // the sum of Counts
	Sum    uint64 // the sum of the observed values
}

// Snapshot reads the histogram. It allocates; it is for readers (a
// scrape, SHOW STATUS), never for the path that observes.
func (h *Histogram) Snapshot() Snapshot {
	s := Snapshot{Bounds: make([]uint64, h.n), Counts: make([]uint64, h.n+1)}
	for i := range h.n {
		s.Bounds[i] = h.base << i
	}
	for i := range h.n + 1 {
		c := h.counts[i].Load()
		s.Counts[i] = c
		s.Count += c
	}
	s.Sum = h.sum.Load()
	return s
}
