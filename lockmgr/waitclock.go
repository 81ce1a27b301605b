package lockmgr

import (
	"context"
	"sync/atomic"
	"time"
)

// WaitClock sums the time a statement's lock requests spent queued (the
// slow query log's Lock_time). Only waits are timed: a lock granted at
// once costs nothing.
type WaitClock struct{ nanos atomic.Int64 }

// Reset zeroes the clock.
func (c *WaitClock) Reset() { c.nanos.Store(0) }

// Total is the time waited since the last Reset.
func (c *WaitClock) Total() time.Duration { return time.Duration(c.nanos.Load()) }

type waitClockKey struct{}

// WithWaitClock returns a context whose lock waits add to c.
func WithWaitClock(ctx context.Context, c *WaitClock) context.Context {
	return context.WithValue(ctx, waitClockKey{}, c)
}

// noteWait adds a finished wait to ctx's clock, if it has one.
func noteWait(ctx context.Context, since time.Time) {
	if c, ok := ctx.Value(waitClockKey{}).(*WaitClock); ok {
		c.nanos.Add(int64(time.Since(since)))
	}
}
