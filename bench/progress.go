package bench

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// startProgress prints to w, once a second, how many of total operations
// are done and the rate over the last second. stop ends the printer and
// waits for it, so nothing is printed after stop returns. A nil w prints
// nothing.
func startProgress(w io.Writer, label string, total int64, done *atomic.Int64) (stop func()) {
	if w == nil {
		return func() {}
	}
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		start, last := time.Now(), int64(0)
		for {
			select {
			case <-quit:
				return
			case now := <-tick.C:
				n := done.Load()
				fmt.Fprintf(w, "[%s] %4.0fs  %d/%d  %.0f/s\n", label, now.Sub(start).Seconds(), n, total, float64(n-last))
				last = n
			}
		}
	}()
	return func() {
		close(quit)
		wg.Wait()
	}
}
