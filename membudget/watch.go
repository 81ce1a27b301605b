package membudget

import (
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"
)

// watchEvery is how often a watch samples the heap.
const watchEvery = 5 * time.Millisecond

// heapObjects is the heap's objects, garbage not yet collected included;
// heapLive what the last collection found live.
const (
	heapObjects = "/memory/classes/heap/objects:bytes"
	heapLive    = "/gc/heap/live:bytes"
)

// watching is how many Watches run now.
var watching atomic.Int64

// Watch guards what a VM allocates without asking: the strings `+`
// builds in JavaScript, the tables and arrays a script grows one element
// at a time. Until stop is called it samples the process heap; when the
// live heap has grown since Watch began by more than what b has left,
// counting out what the SQL layer charged to budgets meanwhile, it calls
// exceed once with the budget's error (the caller interrupts its VM
// there). The heap is the whole process's, and other procedures' growth
// cannot be told from this one's, so while n procedures are watched each
// is allowed n times what it has left: a lone runaway is stopped at its
// budget, concurrent ones by the time they hold n budgets together, and a
// procedure that allocates nothing is not stopped for its neighbours'
// growth unless they pass theirs. It is the backstop behind the exact
// checks of the VMs' string functions (Fits), which catch one huge
// allocation before it is made. stop waits for the sampler to end. A nil
// budget watches nothing.
func (b *Budget) Watch(exceed func(error)) (stop func()) {
	if b == nil {
		return func() {}
	}
	watching.Add(1)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer watching.Add(-1)
		sample := []metrics.Sample{{Name: heapObjects}, {Name: heapLive}}
		read := func(i int) int64 {
			metrics.Read(sample)
			if sample[i].Value.Kind() != metrics.KindUint64 {
				return 0
			}
			return int64(sample[i].Value.Uint64())
		}
		// The heap as of the last collection, before this call allocated.
		base, baseCharged := read(1), charged.Load()
		// grown is the heap's growth not charged to any budget.
		grown := func(heap int64) int64 { return heap - base - (charged.Load() - baseCharged) }
		allowed := func() int64 { return (b.limit - b.Used()) * max(1, watching.Load()) }
		floor := int64(0) // growth already judged live and allowed
		t := time.NewTicker(watchEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			if grown(read(0)) <= floor+allowed() {
				continue
			}
			// Past it counting garbage: collect, and judge what is live.
			// A false alarm moves the mark a whole allowance on, so this
			// costs one collection per allowance of allocation at most.
			runtime.GC()
			live := grown(read(0))
			if live > allowed() {
				exceed(b.exceeded())
				return
			}
			floor = max(live, 0)
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() { close(done) })
		wg.Wait()
	}
}
