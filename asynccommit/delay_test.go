package asynccommit

import (
	"context"
	"testing"
	"time"

	"github.com/plrun/plrun/wal"
)

// TestSyncDelayOverlaps checks the SyncDelay model: a group is durable only
// once its delay has passed since its fsync, and the delay of one group
// overlaps with the next group's write and fsync (a remote round trip, not
// a stalled writer).
func TestSyncDelayOverlaps(t *testing.T) {
	const delay = 2 * time.Second
	e := newCommitEnv(t, wal.Options{}, Options{SyncDelay: func() time.Duration { return delay }})
	waitSyncs := func(n uint64) {
		t.Helper()
		deadline := time.Now().Add(delay / 2)
		for e.p.Stats().Syncs < n {
			if time.Now().After(deadline) {
				t.Fatalf("sync %d did not start while the previous group was in its delay", n)
			}
			time.Sleep(time.Millisecond)
		}
	}
	start := time.Now()
	first, err := e.append("a")
	if err != nil {
		t.Fatal(err)
	}
	waitSyncs(1)
	second, err := e.append("b")
	if err != nil {
		t.Fatal(err)
	}
	waitSyncs(2)
	if d := e.p.DurableLSN(); d >= first {
		t.Fatalf("LSN %d durable %v after its append, before its %v delay", d, time.Since(start), delay)
	}
	if err := e.p.WaitDurable(context.Background(), second); err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el < delay {
		t.Fatalf("durable after %v, before the %v delay", el, delay)
	}
	if s := e.p.Stats(); s.Syncs != 2 {
		t.Fatalf("%d syncs, want 2", s.Syncs)
	}
}
