package lockmgr

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestStress runs many transactions that lock random keys in random orders
// (so deadlocks are frequent), cancel some waits, and release half of the time
// early with ELR against a pipeline that makes LSNs durable in the background.
// It checks mutual exclusion, the dependent limit, that every run terminates
// without a lock wait timeout (a lost wakeup or a missed deadlock would hang
// until one), and that the table is empty at the end.
func TestStress(t *testing.T) {
	const (
		numWorkers   = 24
		txnsEach     = 600
		numKeys      = 6
		maxDependent = 2
	)
	dur := &stressDurability{}
	m := New(Options{
		LockWaitTimeout:  func() time.Duration { return 20 * time.Second },
		MaxELRDependents: func() int { return maxDependent },
		Durability:       dur,
	})
	pipelineDone := make(chan struct{})
	stopPipeline := make(chan struct{})
	go dur.run(stopPipeline, pipelineDone)

	var owners [numKeys]atomic.Uint64 // txn+1 holding the key, 0 if none
	keys := make([]Key, numKeys)
	for i := range keys {
		keys[i] = Key(fmt.Sprintf("7/%d", i))
	}
	var nextTxn atomic.Uint64
	var committed, rolledBack, cancelled atomic.Int64
	errs := make(chan error, numWorkers)

	var wg sync.WaitGroup
	for w := 0; w < numWorkers; w++ {
		wg.Add(1)
		go func(seed uint64) {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(seed, 42))
			for i := 0; i < txnsEach; i++ {
				txn := TxnID(nextTxn.Add(1))
				order := rng.Perm(numKeys)[:1+rng.IntN(4)]
				var held []int
				var failed error
				for _, k := range order {
					ctx, cancel := context.Background(), context.CancelFunc(func() {})
					if rng.IntN(10) == 0 {
						ctx, cancel = context.WithTimeout(ctx, time.Duration(rng.IntN(200))*time.Microsecond)
					}
					err := m.Acquire(ctx, txn, keys[k])
					cancel()
					if err != nil {
						failed = err
						break
					}
					if !owners[k].CompareAndSwap(0, uint64(txn)+1) {
						errs <- fmt.Errorf("txn %d acquired key %d held by txn %d", txn, k, owners[k].Load()-1)
						return
					}
					if n := m.PendingDependents(keys[k]); n >= maxDependent {
						errs <- fmt.Errorf("txn %d holds key %d with %d pending dependents", txn, k, n)
						return
					}
					held = append(held, k)
					runtime.Gosched()
				}
				for _, k := range held {
					if !owners[k].CompareAndSwap(uint64(txn)+1, 0) {
						errs <- fmt.Errorf("txn %d lost key %d to txn %d", txn, k, owners[k].Load()-1)
						return
					}
				}
				switch {
				case failed == nil && rng.IntN(2) == 0:
					m.ReleaseEarly(txn, dur.assign())
					committed.Add(1)
				case failed == nil:
					m.ReleaseAll(txn)
					committed.Add(1)
				case errors.Is(failed, ErrDeadlock):
					m.ReleaseAll(txn)
					rolledBack.Add(1)
				case errors.Is(failed, context.DeadlineExceeded):
					m.ReleaseAll(txn)
					cancelled.Add(1)
				default:
					errs <- fmt.Errorf("txn %d: unexpected error %v", txn, failed)
					return
				}
			}
		}(uint64(w))
	}
	allDone := make(chan struct{})
	go func() { wg.Wait(); close(allDone) }()
	select {
	case <-allDone:
	case <-time.After(60 * time.Second):
		buf := make([]byte, 1<<20)
		t.Fatalf("stress run did not terminate:\n%s", buf[:runtime.Stack(buf, true)])
	}
	close(stopPipeline)
	<-pipelineDone
	close(errs)
	for err := range errs {
		t.Error(err)
	}

	dur.durable.Store(dur.lsn.Load())
	for _, key := range keys {
		if txn, ok := m.Holder(key); ok {
			t.Errorf("key %s still held by txn %d", key, txn)
		}
		if n := m.PendingDependents(key); n != 0 {
			t.Errorf("key %s has %d pending dependents after everything is durable", key, n)
		}
	}
	for i := range m.shards {
		if n := len(m.shards[i].mu.locks); n != 0 {
			t.Errorf("shard %d still has %d keys", i, n)
		}
	}
	if n := len(m.graph.mu.waitingOn); n != 0 {
		t.Errorf("waits-for graph still has %d edges", n)
	}
	s := m.Stats()
	t.Logf("committed=%d deadlock-victims=%d cancelled=%d stats=%+v",
		committed.Load(), rolledBack.Load(), cancelled.Load(), s)
	if s.CurrentWaiters != 0 || s.LockWaitTimeouts != 0 {
		t.Errorf("want no waiters and no lock wait timeouts, got %+v", s)
	}
	if s.Deadlocks == 0 || uint64(rolledBack.Load()) != s.Deadlocks || s.DependentLimitWaits == 0 {
		t.Errorf("stress did not exercise deadlocks and dependent waits: %+v", s)
	}
}

// stressDurability is a commit pipeline that makes assigned LSNs durable a
// little later, from one goroutine owned by the test.
type stressDurability struct {
	lsn     atomic.Uint64 // last assigned
	durable atomic.Uint64
	mu      sync.Mutex
	changed chan struct{}
}

func (d *stressDurability) assign() uint64 { return d.lsn.Add(1) }

func (d *stressDurability) DurableLSN() uint64 { return d.durable.Load() }

func (d *stressDurability) WaitDurable(ctx context.Context, lsn uint64) error {
	for {
		d.mu.Lock()
		if d.changed == nil {
			d.changed = make(chan struct{})
		}
		ch := d.changed
		d.mu.Unlock()
		if d.durable.Load() >= lsn {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (d *stressDurability) run(stop <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	ticker := time.NewTicker(200 * time.Microsecond)
	defer ticker.Stop()
	for {
		select {
		case <-stop:
			return
		case <-ticker.C:
		}
		d.mu.Lock()
		d.durable.Store(d.lsn.Load())
		if d.changed != nil {
			close(d.changed)
			d.changed = nil
		}
		d.mu.Unlock()
	}
}
