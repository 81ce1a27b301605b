package bench

import (
	"context"
	"path/filepath"
	"testing"
)

func TestLargeTrxSplitsAndKeepsEverything(t *testing.T) {
	for _, split := range []bool{false, true} {
		res, err := RunLargeTrx(context.Background(), LargeTrxConfig{
			Dir: filepath.Join(t.TempDir(), "run"), Split: split, SizeBytes: 2 << 20, SplitSize: 256 << 10, Threads: 2,
		})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Verified {
			t.Fatalf("split=%v: not verified: %+v", split, res)
		}
		if split && res.Chunks < 8 || !split && res.Chunks != 0 {
			t.Fatalf("split=%v: %.0f chunks", split, res.Chunks)
		}
	}
}
