package bench

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

func TestHotrowCountsEveryUpdate(t *testing.T) {
	for _, elr := range []bool{false, true} {
		t.Run("elr="+onOff(elr), func(t *testing.T) {
			cfg := HotrowConfig{Dir: filepath.Join(t.TempDir(), "data"), Threads: 4, Updates: 50, ELR: elr, FsyncProbes: 5}
			res, err := RunHotrow(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if got := res.KAfter - res.KBefore; got != 4*50 || !res.Verified {
				t.Fatalf("k grew by %d (verified=%v), want %d", got, res.Verified, 4*50)
			}
			if res.TPS <= 0 || res.P50Ms <= 0 || res.P99Ms < res.P50Ms {
				t.Fatalf("implausible figures: %+v", res)
			}
			if res.Commits < 4*50 {
				t.Fatalf("Plrun_commits moved by %v, want at least %d", res.Commits, 4*50)
			}
		})
	}
}

func TestSummarize(t *testing.T) {
	var lat []time.Duration
	for i := 100; i >= 1; i-- {
		lat = append(lat, time.Duration(i)*time.Millisecond)
	}
	p := Summarize(lat)
	if p.P50 != 50*time.Millisecond || p.P95 != 95*time.Millisecond || p.P99 != 99*time.Millisecond || p.Max != 100*time.Millisecond {
		t.Fatalf("Summarize(1..100ms) = %+v", p)
	}
	if (Summarize(nil) != Percentiles{}) {
		t.Fatal("Summarize(nil) is not zero")
	}
}

func TestMeasureFsync(t *testing.T) {
	d, err := MeasureFsync(t.TempDir(), 5)
	if err != nil || d <= 0 {
		t.Fatalf("MeasureFsync = %v, %v", d, err)
	}
}
