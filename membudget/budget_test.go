package membudget_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/plrun/plrun/membudget"
	"github.com/plrun/plrun/sqlerr"
)

func TestBudget(t *testing.T) {
	b := membudget.New(100)
	if err := b.Grow(60); err != nil {
		t.Fatal(err)
	}
	if err := b.Fits(40); err != nil {
		t.Fatalf("40 of 40 left: %v", err)
	}
	err := b.Grow(41)
	if e, ok := sqlerr.As(err); !ok || e.Code != sqlerr.ErCapacityExceeded || !errors.Is(err, membudget.ErrExceeded) {
		t.Fatalf("past the budget: %v, want 3170 wrapping ErrExceeded", err)
	}
	if b.Used() != 60 {
		t.Fatalf("a refused Grow charged: used %d", b.Used())
	}
	b.Shrink(60)
	if err := b.Grow(100); err != nil {
		t.Fatalf("after Shrink: %v", err)
	}
	if err := b.Fits(-1); err == nil {
		t.Fatal("a negative (overflowed) size fits")
	}
	var none *membudget.Budget // no limit
	if none.Grow(1<<62) != nil || none.Fits(1<<62) != nil || membudget.New(0) != nil {
		t.Fatal("a nil budget limits")
	}
	ctx := membudget.With(context.Background(), b)
	if membudget.From(ctx) != b || membudget.From(context.Background()) != nil {
		t.Fatal("the budget does not travel in the context")
	}
}

// TestWatch: a heap that grows past the budget is reported once; stop
// ends the sampler.
func TestWatch(t *testing.T) {
	b := membudget.New(1 << 20)
	fired := make(chan error, 1)
	stop := b.Watch(func(err error) { fired <- err })
	defer stop()
	var hold [][]byte
	for i := 0; i < 400; i++ {
		hold = append(hold, make([]byte, 64<<10)) // 25 MiB, live
		select {
		case err := <-fired:
			if !errors.Is(err, membudget.ErrExceeded) {
				t.Fatalf("watch reported %v", err)
			}
			return
		default:
			time.Sleep(time.Millisecond)
		}
	}
	_ = hold
	select {
	case <-fired:
	case <-time.After(5 * time.Second):
		t.Fatal("25 MiB held past a 1 MiB budget and the watch said nothing")
	}
}
