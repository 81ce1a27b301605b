package lockmgr

import (
	"time"

	"github.com/plrun/plrun/internal/histogram"
)

// Histograms are the manager's wait-time distributions, in nanoseconds.
type Histograms struct {
	// LockWait is each queued Acquire's wait for the row lock, however it
	// ended (granted, timeout, cancelled).
	LockWait histogram.Snapshot
	// DependentWait is each new holder's wait for ELR dependents to become
	// durable (_max_elr_dependent_trx_count).
	DependentWait histogram.Snapshot
}

// waitHistograms are observed only on the waiting paths; an Acquire that
// does not wait touches neither.
type waitHistograms struct {
	lockWait, dependentWait *histogram.Histogram
}

func newWaitHistograms() waitHistograms {
	return waitHistograms{
		lockWait:      histogram.NewDuration(time.Microsecond, 27), // 1us .. 67s (past the 50s default timeout)
		dependentWait: histogram.NewDuration(time.Microsecond, 27),
	}
}

// Histograms returns snapshots of the wait histograms.
func (m *Manager) Histograms() Histograms {
	return Histograms{LockWait: m.hist.lockWait.Snapshot(), DependentWait: m.hist.dependentWait.Snapshot()}
}
