package bench

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestIntervalLineIsSysbenchs(t *testing.T) {
	iv := Interval{AtSec: 2, Threads: 50, TPS: 4011.5, P95Ms: 14.99, ErrPerS: 0}
	if got, want := intervalLine(iv, 0, 0, 2*time.Second), "[ 2s ] thds: 50 tps: 4011.50 lat (ms,95%): 14.99 err/s: 0.00"; got != want {
		t.Errorf("time-bounded line\n got %q\nwant %q", got, want)
	}
	// A quarter of the count done in 2 s: 6 s to go.
	got := intervalLine(iv, 25000, 100000, 2*time.Second)
	if !strings.HasSuffix(got, " eta: 6s (25000/100000)") {
		t.Errorf("count-bounded line %q has no ETA of 6s", got)
	}
	if got := intervalLine(Interval{AtSec: 0.5, Threads: 1}, 0, 0, 0); !strings.HasPrefix(got, "[ 0.5s ] ") {
		t.Errorf("sub-second interval: %q", got)
	}
}

// The count bound runs exactly Count operations per thread, the warm-up's
// apart, and AtStart runs between the two.
func TestDriveCountsAndWarmup(t *testing.T) {
	var ops, atStartOps atomic.Int64
	fail := errors.New("every 7th fails")
	res := drive(context.Background(), Load{Warmup: 20 * time.Millisecond}, driveSpec{
		Threads: 3, Count: 10,
		AtStart: func() { atStartOps.Store(ops.Load()) },
		Op: func(ctx context.Context, th int) error {
			if ops.Add(1)%7 == 0 {
				return fail
			}
			return nil
		},
	})
	if res.Ok+res.Failed != 30 || int64(len(res.Lat)) != res.Ok {
		t.Fatalf("measured ok %d + failed %d, %d latencies; want 30 operations", res.Ok, res.Failed, len(res.Lat))
	}
	if res.WarmOk+res.WarmFailed != atStartOps.Load() || ops.Load() != atStartOps.Load()+30 {
		t.Fatalf("warm-up %d+%d ops, %d before AtStart, %d in all", res.WarmOk, res.WarmFailed, atStartOps.Load(), ops.Load())
	}
	if !errors.Is(res.FirstErr, fail) {
		t.Fatalf("first error %v", res.FirstErr)
	}
}

func TestDriveStopOnError(t *testing.T) {
	res := drive(context.Background(), Load{}, driveSpec{
		Threads: 2, Count: 5, StopOnError: true,
		Op: func(ctx context.Context, th int) error { return errors.New("no") },
	})
	if res.Failed != 2 || res.Ok != 0 {
		t.Fatalf("ok %d failed %d, want each thread to stop at its first error", res.Ok, res.Failed)
	}
}

func TestHotrowTimeBoundVerifies(t *testing.T) {
	cfg := HotrowConfig{Dir: filepath.Join(t.TempDir(), "data"), Threads: 3, ELR: true, FsyncProbes: 5,
		Load: Load{Time: 200 * time.Millisecond, Warmup: 20 * time.Millisecond}}
	res, err := RunHotrow(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Verified || res.KAfter-res.KBefore != res.Done+res.WarmupDone || res.Updates != 0 {
		t.Fatalf("%+v", res)
	}
}

func TestInventorySweepVerifiesEveryPoint(t *testing.T) {
	for _, hot := range []bool{false, true} {
		res, err := RunInventory(context.Background(), InventoryConfig{
			Dir: filepath.Join(t.TempDir(), "data"), Hotspot: hot, Threads: []int{1, 4}, Updates: 10})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Points) != 2 || res.Points[1].Threads != 4 || res.Points[1].Updates != 40 {
			t.Fatalf("hotspot=%v: points %+v", hot, res.Points)
		}
		for _, pt := range res.Points {
			if !pt.Verified || pt.QPS <= 0 || pt.P95Ms <= 0 {
				t.Fatalf("hotspot=%v: point %+v", hot, pt)
			}
			// The hinted UPDATE goes through group update, the plain one not.
			if hot != (pt.Groups > 0) {
				t.Fatalf("hotspot=%v: %v update groups at %d threads", hot, pt.Groups, pt.Threads)
			}
		}
	}
}
