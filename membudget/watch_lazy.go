package membudget

import (
	"sync"
	"time"
)

// LazyWatch is Watch for calls that are usually far shorter than one
// sample (a stored function, called once per row): the sampler starts
// only once a call has run watchEvery, so a short call pays for resetting
// a timer instead of starting a goroutine. A call that runs longer is
// watched as Watch watches from then on, which misses no growth: Watch
// measures from the heap as of the last collection. One LazyWatch serves
// one caller at a time (a pooled VM) and is reused call after call; its
// zero value is ready.
type LazyWatch struct {
	mu        sync.Mutex
	timer     *time.Timer
	armed     bool // between Start and Stop
	b         *Budget
	exceed    func(error)
	stopWatch func()
}

// Start watches b for the call starting now; exceed is as for Watch. A nil
// budget watches nothing.
func (lw *LazyWatch) Start(b *Budget, exceed func(error)) {
	if b == nil {
		return
	}
	lw.mu.Lock()
	lw.armed, lw.b, lw.exceed = true, b, exceed
	if lw.timer == nil {
		lw.timer = time.AfterFunc(watchEvery, lw.fire)
	} else {
		lw.timer.Reset(watchEvery)
	}
	lw.mu.Unlock()
}

func (lw *LazyWatch) fire() {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	// A late run for a call that has ended finds armed false (or, when the
	// next call has started, starts that call's watch a little early).
	if lw.armed && lw.stopWatch == nil {
		lw.stopWatch = lw.b.Watch(lw.exceed)
	}
}

// Stop ends the call's watch and waits for its sampler, if one started.
func (lw *LazyWatch) Stop() {
	lw.mu.Lock()
	if !lw.armed {
		lw.mu.Unlock()
		return
	}
	lw.armed = false
	lw.timer.Stop()
	stopWatch := lw.stopWatch
	lw.stopWatch, lw.b, lw.exceed = nil, nil, nil
	lw.mu.Unlock()
	if stopWatch != nil {
		stopWatch()
	}
}
