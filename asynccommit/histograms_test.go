package asynccommit

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/plrun/plrun/wal"
)

// TestHistograms: every acknowledged commit is one commit-latency
// observation, every fsync one sync-latency observation, and the group
// sizes add up to the records written, in each flush mode.
func TestHistograms(t *testing.T) {
	for _, mode := range []int64{1, 2, 0} {
		e := newCommitEnv(t, wal.Options{}, Options{SyncDelay: func() time.Duration {
			return 200 * time.Microsecond // a latency the histogram must see
		}})
		e.mode.Store(mode)
		var wg sync.WaitGroup
		const committers, each = 4, 50
		for range committers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range each {
					lsn, err := e.append("x")
					if err == nil {
						err = e.p.WaitDurable(context.Background(), lsn)
					}
					if err != nil {
						t.Error(err)
						return
					}
				}
			}()
		}
		wg.Wait()
		if err := e.p.Flush(context.Background()); err != nil {
			t.Fatal(err)
		}
		e.p.Close() // the writer is done observing
		h, st := e.p.Histograms(), e.p.Stats()
		if h.CommitLatency.Count != committers*each {
			t.Errorf("mode %d: commit latency count %d, want %d", mode, h.CommitLatency.Count, committers*each)
		}
		if h.GroupSize.Count != st.Groups || h.GroupSize.Sum != st.Commits {
			t.Errorf("mode %d: group sizes count %d sum %d; stats groups %d commits %d",
				mode, h.GroupSize.Count, h.GroupSize.Sum, st.Groups, st.Commits)
		}
		if h.SyncLatency.Count != st.Syncs || st.Syncs == 0 {
			t.Errorf("mode %d: sync latency count %d, syncs %d", mode, h.SyncLatency.Count, st.Syncs)
		}
		if h.SyncLatency.Sum < st.Syncs*uint64(200*time.Microsecond) {
			t.Errorf("mode %d: sync latency sum %v below the sync delay of each of %d syncs", mode, time.Duration(h.SyncLatency.Sum), st.Syncs)
		}
		switch mode {
		case 1: // acknowledged after the delayed sync: none is faster
			if h.CommitLatency.Sum < committers*each*uint64(200*time.Microsecond) {
				t.Errorf("mode 1: commit latency sum %v, below the sync delay per commit", time.Duration(h.CommitLatency.Sum))
			}
		case 0: // acknowledged at Append
			if h.CommitLatency.Sum != 0 {
				t.Errorf("mode 0: commit latency sum %v, want 0", time.Duration(h.CommitLatency.Sum))
			}
		}
	}
}
