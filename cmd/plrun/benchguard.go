package main

import (
	"fmt"
	"io"
	"time"

	"github.com/plrun/plrun/bench"
)

// A run estimated past warnOver gets a warning line before it starts; one
// past refuseOver is refused unless --yes: this machine is shared, and a
// count-bounded run at a slow sync delay is easy to start by accident
// (the hot row at 30 ms and the default counts would take ~52 minutes
// with ELR off).
const (
	warnOver   = time.Minute
	refuseOver = 10 * time.Minute
)

// runEstimate adds up what a run's configurations are expected to take.
type runEstimate struct {
	total time.Duration
	parts []string // why, for the message
}

// add counts n operations that are serialized on one log sync each, or a
// fixed time for a time-bounded configuration.
func (e *runEstimate) add(what string, d time.Duration) {
	e.total += d
	e.parts = append(e.parts, fmt.Sprintf("%s %v", what, d.Round(time.Second)))
}

// probeSync is what one log sync costs here: this disk's fsync (a short
// probe in the run's folder) plus the sync delay asked for.
func probeSync(dir string, delay time.Duration) time.Duration {
	fsync, err := bench.MeasureFsync(dir, 20)
	if err != nil {
		fsync = time.Millisecond // cannot probe: a pessimistic guess
	}
	return (fsync + delay).Round(10 * time.Microsecond)
}

// guard prints a warning for a long run and refuses a very long one
// without --yes. It returns false when the run must not start.
func (e *runEstimate) guard(name string, yes bool, stderr io.Writer) bool {
	if e.total <= warnOver {
		return true
	}
	msg := fmt.Sprintf("%s: estimated length about %v (%v)", name, e.total.Round(time.Second), joinParts(e.parts))
	if e.total > refuseOver && !yes {
		fmt.Fprintf(stderr, "%s: refused, over %v; shorten it (--time 30s, smaller counts) or pass --yes\n", msg, refuseOver)
		return false
	}
	fmt.Fprintln(stderr, msg)
	return true
}

func joinParts(parts []string) string {
	out := ""
	for i, p := range parts {
		if i > 0 {
			out += "; "
		}
		out += p
	}
	return out
}
