package histogram

import (
	"slices"
	"sync"
	"testing"
	"time"
)

// TestBuckets: each value lands in the first bucket whose bound is >= it,
// and values past the last bound in +Inf.
func TestBuckets(t *testing.T) {
	h := New(10, 4) // bounds 10, 20, 40, 80, +Inf
	for _, c := range []struct {
		v    uint64
		want int
	}{{0, 0}, {1, 0}, {10, 0}, {11, 1}, {20, 1}, {21, 2}, {40, 2}, {41, 3}, {80, 3}, {81, 4}, {1 << 62, 4}} {
		if got := h.bucket(c.v); got != c.want {
			t.Errorf("bucket(%d) = %d, want %d", c.v, got, c.want)
		}
	}
	for _, v := range []uint64{5, 15, 15, 100} {
		h.Observe(v)
	}
	s := h.Snapshot()
	if want := []uint64{10, 20, 40, 80}; !slices.Equal(s.Bounds, want) {
		t.Errorf("bounds %v, want %v", s.Bounds, want)
	}
	if want := []uint64{1, 2, 0, 0, 1}; !slices.Equal(s.Counts, want) {
		t.Errorf("counts %v, want %v", s.Counts, want)
	}
	if s.Count != 4 || s.Sum != 135 {
		t.Errorf("count %d sum %d, want 4 and 135", s.Count, s.Sum)
	}
}

// TestDuration: durations are nanoseconds; a negative one counts as 0.
func TestDuration(t *testing.T) {
	h := NewDuration(time.Microsecond, 3) // 1us, 2us, 4us
	h.ObserveDuration(-time.Second)
	h.ObserveDuration(3 * time.Microsecond)
	h.ObserveDuration(time.Second)
	s := h.Snapshot()
	if want := []uint64{1, 0, 1, 1}; !slices.Equal(s.Counts, want) {
		t.Errorf("counts %v, want %v", s.Counts, want)
	}
	if s.Sum != uint64(time.Second+3*time.Microsecond) {
		t.Errorf("sum %d", s.Sum)
	}
}

// TestConcurrent: observations from many goroutines are all counted
// (run under -race too).
func TestConcurrent(t *testing.T) {
	h := New(1, 12)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 1000 {
				h.Observe(uint64(g*1000 + i))
				if i%100 == 0 {
					_ = h.Snapshot()
				}
			}
		}()
	}
	wg.Wait()
	if s := h.Snapshot(); s.Count != 8000 {
		t.Errorf("count %d, want 8000", s.Count)
	}
}

func TestNewPanicsOnBadShape(t *testing.T) {
	for _, c := range []struct {
		base uint64
		n    int
	}{{0, 3}, {1, 0}, {1, MaxBuckets + 1}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("New(%d, %d) did not panic", c.base, c.n)
				}
			}()
			New(c.base, c.n)
		}()
	}
}

func BenchmarkObserve(b *testing.B) {
	h := NewDuration(time.Microsecond, 27)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		v := uint64(12345)
		for pb.Next() {
			h.Observe(v)
			v += 7919
		}
	})
}
