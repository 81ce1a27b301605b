package lockmgr

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestWaitHistograms: a queued Acquire is one lock-wait observation
// whether it is granted or times out, an uncontended one is none, and a
// wait for ELR dependents is one dependent-wait observation.
func TestWaitHistograms(t *testing.T) {
	dur := newFakeDurability()
	m := New(Options{MaxELRDependents: func() int { return 1 }, Durability: dur})
	ctx := context.Background()
	if err := m.Acquire(ctx, 1, "k"); err != nil {
		t.Fatal(err)
	}
	if h := m.Histograms(); h.LockWait.Count != 0 {
		t.Fatalf("uncontended acquire observed a lock wait: %+v", h.LockWait)
	}

	// A wait that times out.
	err := m.Acquire(WithLockWaitTimeout(ctx, time.Millisecond), 2, "k")
	if !errors.Is(err, ErrLockWaitTimeout) {
		t.Fatalf("want a lock wait timeout, got %v", err)
	}
	if h := m.Histograms(); h.LockWait.Count != 1 || h.LockWait.Sum < uint64(time.Millisecond) {
		t.Fatalf("after a 1ms timeout: lock wait %+v", h.LockWait)
	}

	// A wait that is granted by an early release, whose new holder then
	// waits for the released transaction to become durable.
	granted := make(chan error, 1)
	go func() { granted <- m.Acquire(ctx, 3, "k") }()
	for m.Stats().CurrentWaiters == 0 {
		time.Sleep(time.Millisecond)
	}
	m.ReleaseEarly(1, 5)
	for dur.blocked() == 0 {
		time.Sleep(time.Millisecond)
	}
	if h := m.Histograms(); h.LockWait.Count != 2 || h.DependentWait.Count != 0 {
		t.Fatalf("granted, waiting for dependents: lock wait %d, dependent wait %d", h.LockWait.Count, h.DependentWait.Count)
	}
	dur.setDurable(5)
	if err := <-granted; err != nil {
		t.Fatal(err)
	}
	if h := m.Histograms(); h.DependentWait.Count != 1 {
		t.Fatalf("dependent wait count %d, want 1", h.DependentWait.Count)
	}
	m.ReleaseAll(3)
}
