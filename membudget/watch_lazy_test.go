package membudget_test

import (
	"errors"
	"testing"
	"time"

	"github.com/plrun/plrun/membudget"
)

// TestLazyWatch: a call that outlives one sample is watched as Watch
// watches it (25 MiB held past a 1 MiB budget is reported), and the same
// LazyWatch serves the next call after Stop.
func TestLazyWatch(t *testing.T) {
	b := membudget.New(1 << 20)
	var lw membudget.LazyWatch
	for call := 0; call < 2; call++ {
		fired := make(chan error, 1)
		lw.Start(b, func(err error) {
			select {
			case fired <- err:
			default:
			}
		})
		var hold [][]byte
		var got error
		for i := 0; i < 400 && got == nil; i++ {
			hold = append(hold, make([]byte, 64<<10))
			select {
			case got = <-fired:
			default:
				time.Sleep(time.Millisecond)
			}
		}
		if got == nil {
			select {
			case got = <-fired:
			case <-time.After(5 * time.Second):
			}
		}
		lw.Stop()
		_ = hold
		if !errors.Is(got, membudget.ErrExceeded) {
			t.Fatalf("call %d: 25 MiB held past a 1 MiB budget; the lazy watch reported %v", call, got)
		}
	}
	lw.Stop() // a second Stop is harmless
	lw.Start(nil, nil)
	lw.Stop()
}
