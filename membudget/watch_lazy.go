package membudget

import (
	"sync"
	"time"
)

// WatchLazy is Watch for calls that are usually far shorter than one
// sample (a stored function, called once per row): the sampler starts
// only once the call has run watchEvery, so a short call pays for a timer
// instead of a goroutine. A call that runs longer is watched as Watch
// watches it from then on, which misses no growth: Watch measures from
// the heap as of the last collection. stop waits for the sampler, if one
// started. A nil budget watches nothing.
func (b *Budget) WatchLazy(exceed func(error)) (stop func()) {
	if b == nil {
		return func() {}
	}
	lw := &lazyWatch{}
	lw.timer = time.AfterFunc(watchEvery, func() {
		lw.mu.Lock()
		defer lw.mu.Unlock()
		if !lw.stopped {
			lw.stopWatch = b.Watch(exceed)
		}
	})
	return lw.stop
}

type lazyWatch struct {
	timer     *time.Timer
	mu        sync.Mutex
	stopped   bool
	stopWatch func()
}

func (lw *lazyWatch) stop() {
	if lw.timer.Stop() {
		return // the sampler never started
	}
	lw.mu.Lock()
	lw.stopped = true
	stopWatch := lw.stopWatch
	lw.stopWatch = nil
	lw.mu.Unlock()
	if stopWatch != nil {
		stopWatch()
	}
}
