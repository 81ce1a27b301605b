package membudget

import (
	"runtime"
	"runtime/metrics"
	"sync"
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

// Watch guards what a VM allocates without asking: the strings `+`
// builds in JavaScript, the tables and arrays a script grows one element
// at a time. Until stop is called it samples the process heap; when the
// live heap has grown by more than what b has left since Watch began, it
// calls exceed once with the budget's error (the caller interrupts its VM
// there). The heap is the whole process's, so a busy server can stop a
// script early, never late: it is the backstop behind the exact checks
// of the VMs' string functions (Fits), which catch one huge allocation
// before it is made. stop waits for the sampler to end. A nil budget
// watches nothing.
func (b *Budget) Watch(exceed func(error)) (stop func()) {
	if b == nil {
		return func() {}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		sample := []metrics.Sample{{Name: heapObjects}, {Name: heapLive}}
		read := func(i int) int64 {
			metrics.Read(sample)
			if sample[i].Value.Kind() != metrics.KindUint64 {
				return 0
			}
			return int64(sample[i].Value.Uint64())
		}
		// The heap as of the last collection, before this call allocated.
		base := read(1)
		threshold := base + b.limit - b.Used()
		t := time.NewTicker(watchEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			if read(0) <= threshold {
				continue
			}
			// Past it counting garbage: collect, and judge what is live.
			// A false alarm (other sessions' garbage) moves the threshold
			// a whole budget on, so this costs one collection per budget's
			// worth of allocation at most.
			runtime.GC()
			live := read(0)
			left := b.limit - b.Used()
			if live-base > left {
				exceed(b.exceeded())
				return
			}
			threshold = live + left
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() { close(done) })
		wg.Wait()
	}
}
