package asynccommit

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plrun/plrun/wal"
)

// commitEnv is a pipeline on a real log in a temp dir.
type commitEnv struct {
	t    *testing.T
	dir  string
	log  *wal.Log
	p    *Pipeline
	mode atomic.Int64

	mu       sync.Mutex
	appended map[uint64]string // lsn -> payload of every successful Append
}

func newCommitEnv(t *testing.T, walOpts wal.Options, opts Options) *commitEnv {
	t.Helper()
	e := &commitEnv{t: t, dir: t.TempDir(), appended: map[uint64]string{}}
	e.mode.Store(1)
	if opts.FlushMode == nil {
		opts.FlushMode = func() int { return int(e.mode.Load()) }
	}
	log, err := wal.Open(e.dir, walOpts)
	if err != nil {
		t.Fatal(err)
	}
	e.log = log
	e.p = Open(log, opts)
	t.Cleanup(func() {
		e.p.Close()
		e.log.Close()
	})
	return e
}

func (e *commitEnv) append(payload string) (uint64, error) {
	lsn, err := e.p.Append(wal.KindCommit, []byte(payload))
	if err == nil {
		e.mu.Lock()
		e.appended[lsn] = payload
		e.mu.Unlock()
	}
	return lsn, err
}

// reopenAndReplay closes pipeline and log, reopens the log without fault
// hooks and returns the replayed LSNs, checking each payload against what
// was appended and that the LSNs are exactly 1..N.
func (e *commitEnv) reopenAndReplay() []uint64 {
	e.t.Helper()
	e.p.Close()
	e.log.Close()
	log, err := wal.Open(e.dir, wal.Options{})
	if err != nil {
		e.t.Fatal(err)
	}
	defer log.Close()
	var lsns []uint64
	err = log.Replay(0, func(r wal.Record) error {
		e.mu.Lock()
		want, ok := e.appended[r.LSN]
		e.mu.Unlock()
		if !ok || string(r.Payload) != want || r.Kind != wal.KindCommit {
			return fmt.Errorf("replayed lsn %d payload %q kind %d; appended %q (%t)", r.LSN, r.Payload, r.Kind, want, ok)
		}
		if r.LSN != uint64(len(lsns))+1 {
			return fmt.Errorf("replayed lsn %d at position %d", r.LSN, len(lsns))
		}
		lsns = append(lsns, r.LSN)
		return nil
	})
	if err != nil {
		e.t.Fatal(err)
	}
	return lsns
}

func TestOrderingDurabilityAndReplay(t *testing.T) {
	e := newCommitEnv(t, wal.Options{SegmentSize: 64 << 10}, Options{})
	const workers, perWorker = 16, 150
	stopWatch := make(chan struct{})
	watchErr := make(chan error, 1)
	go func() { // the watermark must never move backwards
		var prev uint64
		for {
			select {
			case <-stopWatch:
				watchErr <- nil
				return
			default:
			}
			if cur := e.p.DurableLSN(); cur < prev {
				watchErr <- fmt.Errorf("DurableLSN went from %d to %d", prev, cur)
				return
			} else {
				prev = cur
			}
		}
	}()
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var prev uint64
			for i := 0; i < perWorker; i++ {
				lsn, err := e.append(fmt.Sprintf("w%d-%d", w, i))
				if err != nil {
					errs <- err
					return
				}
				if lsn <= prev {
					errs <- fmt.Errorf("worker %d got lsn %d after %d", w, lsn, prev)
					return
				}
				prev = lsn
				if err := e.p.WaitDurable(context.Background(), lsn); err != nil {
					errs <- err
					return
				}
				if d := e.p.DurableLSN(); d < lsn {
					errs <- fmt.Errorf("WaitDurable(%d) returned with DurableLSN %d", lsn, d)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(stopWatch)
	if err := <-watchErr; err != nil {
		t.Fatal(err)
	}
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	const total = workers * perWorker
	if e.p.LastLSN() != total || e.p.DurableLSN() != total {
		t.Fatalf("LastLSN %d DurableLSN %d, want %d", e.p.LastLSN(), e.p.DurableLSN(), total)
	}
	if st := e.p.Stats(); st.Commits != total || st.Syncs == 0 || st.Syncs > st.Groups {
		t.Fatalf("stats %+v", st)
	}
	if got := e.reopenAndReplay(); len(got) != total {
		t.Fatalf("replayed %d records, want %d", len(got), total)
	}

	// LSNs continue after the log's last LSN on reopen.
	log, err := wal.Open(e.dir, wal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	p := Open(log, Options{})
	defer p.Close()
	if lsn, err := p.Append(wal.KindCommit, []byte("after")); err != nil || lsn != total+1 {
		t.Fatalf("first lsn after reopen = %d, %v; want %d", lsn, err, total+1)
	}
}

func TestGroupCommitGroups(t *testing.T) {
	e := newCommitEnv(t, wal.Options{}, Options{SyncDelay: func() time.Duration { return time.Millisecond }})
	const workers, perWorker = 64, 20
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < perWorker; i++ {
				lsn, err := e.append("x")
				if err == nil {
					err = e.p.WaitDurable(context.Background(), lsn)
				}
				if err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	st := e.p.Stats()
	t.Logf("stats %+v (%.1f commits per sync)", st, float64(st.Commits)/float64(st.Syncs))
	if st.Commits != workers*perWorker || st.Syncs*4 > st.Commits {
		t.Fatalf("commits were not grouped: %+v", st)
	}
	if st.SyncNanos < st.Syncs*uint64(time.Millisecond) {
		t.Fatalf("SyncNanos %d does not include the 1ms SyncDelay of %d syncs", st.SyncNanos, st.Syncs)
	}
}

func TestFailStop(t *testing.T) {
	for _, hook := range []string{"write", "sync"} {
		t.Run(hook, func(t *testing.T) {
			cause := errors.New("injected EIO")
			var armed atomic.Bool
			fault := func() error {
				if armed.Load() {
					return cause
				}
				return nil
			}
			walOpts := wal.Options{}
			if hook == "write" {
				walOpts.BeforeWrite = fault
			} else {
				walOpts.BeforeSync = fault
			}
			e := newCommitEnv(t, walOpts, Options{})
			var mu sync.Mutex
			var acked []uint64
			var outcomeUnknown int
			var wg sync.WaitGroup
			for w := 0; w < 8; w++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := 0; ; i++ {
						lsn, err := e.append(fmt.Sprintf("w%d-%d", w, i))
						if err != nil {
							if !errors.Is(err, ErrOutcomeUnknown) || !errors.Is(err, cause) {
								t.Errorf("Append after failure: %v", err)
							}
							return
						}
						err = e.p.WaitDurable(context.Background(), lsn)
						mu.Lock()
						if err == nil {
							acked = append(acked, lsn)
						} else if errors.Is(err, ErrOutcomeUnknown) && errors.Is(err, cause) {
							outcomeUnknown++
						} else {
							t.Errorf("WaitDurable(%d): %v", lsn, err)
						}
						mu.Unlock()
					}
				}()
			}
			for {
				mu.Lock()
				n := len(acked)
				mu.Unlock()
				if n >= 200 {
					break
				}
				time.Sleep(time.Millisecond)
			}
			armed.Store(true)
			wg.Wait()
			if outcomeUnknown == 0 {
				t.Fatal("no waiter saw ErrOutcomeUnknown")
			}
			durable := e.p.DurableLSN()
			for _, lsn := range acked {
				if lsn > durable {
					t.Fatalf("acked lsn %d above DurableLSN %d", lsn, durable)
				}
			}
			if err := e.p.Err(); !errors.Is(err, ErrOutcomeUnknown) || !errors.Is(err, cause) {
				t.Fatalf("Err() = %v", err)
			}
			if e.p.LastLSN() > durable {
				if err := e.p.WaitDurable(context.Background(), durable+1); !errors.Is(err, ErrOutcomeUnknown) {
					t.Fatalf("WaitDurable after fail-stop = %v", err)
				}
			}
			if err := e.p.Flush(context.Background()); e.p.LastLSN() > durable && !errors.Is(err, ErrOutcomeUnknown) {
				t.Fatalf("Flush after fail-stop = %v", err)
			}
			if _, err := e.p.Append(wal.KindCommit, []byte("late")); !errors.Is(err, ErrOutcomeUnknown) {
				t.Fatalf("Append after fail-stop = %v", err)
			}
			armed.Store(false) // even with the fault gone, nothing more is written or acked
			time.Sleep(20 * time.Millisecond)
			if d := e.p.DurableLSN(); d != durable {
				t.Fatalf("DurableLSN moved from %d to %d after fail-stop", durable, d)
			}
			if err := e.p.Close(); !errors.Is(err, ErrOutcomeUnknown) {
				t.Fatalf("Close = %v", err)
			}
			replayed := e.reopenAndReplay()
			if uint64(len(replayed)) < durable {
				t.Fatalf("recovered %d records, but %d were acknowledged", len(replayed), durable)
			}
		})
	}
}

// gate blocks every sync after the first arm() until release().
type gate struct {
	armed   atomic.Bool
	release chan struct{}
	entered chan struct{}
}

func newGate() *gate { return &gate{release: make(chan struct{}), entered: make(chan struct{}, 100)} }

func (g *gate) delay() time.Duration {
	if g.armed.Load() {
		g.entered <- struct{}{}
		<-g.release
	}
	return 0
}

func TestWaitDurableContextCancel(t *testing.T) {
	g := newGate()
	e := newCommitEnv(t, wal.Options{}, Options{SyncDelay: g.delay})
	g.armed.Store(true)
	lsn, err := e.append("blocked")
	if err != nil {
		t.Fatal(err)
	}
	<-g.entered // the writer is inside the sync of lsn
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := e.p.WaitDurable(ctx, lsn); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("WaitDurable = %v, want DeadlineExceeded", err)
	}
	if e.p.DurableLSN() >= lsn {
		t.Fatal("acknowledged before its sync finished")
	}
	g.armed.Store(false)
	close(g.release)
	if err := e.p.WaitDurable(context.Background(), lsn); err != nil {
		t.Fatal(err)
	}
	if err := e.p.WaitDurable(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	if err := e.p.WaitDurable(context.Background(), lsn+5); err == nil {
		t.Fatal("WaitDurable on an unassigned lsn did not fail")
	}
}

func TestCloseWithWaiters(t *testing.T) {
	e := newCommitEnv(t, wal.Options{}, Options{SyncDelay: func() time.Duration { return 2 * time.Millisecond }})
	var wg sync.WaitGroup
	var acked, closed atomic.Int64
	for w := 0; w < 32; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				lsn, err := e.append(fmt.Sprintf("w%d-%d", w, i))
				if errors.Is(err, ErrClosed) {
					closed.Add(1)
					return
				}
				if err != nil {
					t.Error(err)
					return
				}
				// Every record appended before Close is written and synced by it.
				if err := e.p.WaitDurable(context.Background(), lsn); err != nil {
					t.Errorf("WaitDurable(%d) across Close: %v", lsn, err)
					return
				}
				acked.Add(1)
			}
		}()
	}
	time.Sleep(30 * time.Millisecond)
	if err := e.p.Close(); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if err := e.p.Close(); err != nil {
		t.Fatalf("second Close = %v", err)
	}
	if closed.Load() != 32 || acked.Load() == 0 {
		t.Fatalf("closed %d acked %d", closed.Load(), acked.Load())
	}
	if e.p.DurableLSN() != e.p.LastLSN() {
		t.Fatalf("Close left DurableLSN %d below LastLSN %d", e.p.DurableLSN(), e.p.LastLSN())
	}
	if err := e.p.Flush(context.Background()); err != nil {
		t.Fatalf("Flush after Close = %v", err)
	}
	if got := e.reopenAndReplay(); uint64(len(got)) != e.p.LastLSN() {
		t.Fatalf("replayed %d, appended %d", len(got), e.p.LastLSN())
	}
}

func TestFlushModes(t *testing.T) {
	ctx := context.Background()
	t.Run("mode 1 syncs every group", func(t *testing.T) {
		e := newCommitEnv(t, wal.Options{}, Options{})
		for i := 0; i < 5; i++ {
			lsn, _ := e.append("a")
			if err := e.p.WaitDurable(ctx, lsn); err != nil {
				t.Fatal(err)
			}
		}
		if st := e.p.Stats(); st.Syncs != st.Groups || st.Groups != 5 {
			t.Fatalf("sequential mode-1 commits: %+v", st)
		}
	})
	t.Run("mode 2 acks on write", func(t *testing.T) {
		e := newCommitEnv(t, wal.Options{}, Options{})
		e.mode.Store(2)
		for i := 0; i < 5; i++ {
			lsn, _ := e.append("a")
			if err := e.p.WaitDurable(ctx, lsn); err != nil {
				t.Fatal(err)
			}
		}
		if st := e.p.Stats(); st.Groups == 0 || st.Commits != 5 || st.Syncs != 0 {
			t.Fatalf("mode 2 before Flush: %+v", st)
		}
		if err := e.p.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		if st := e.p.Stats(); st.Syncs != 1 {
			t.Fatalf("mode 2 after Flush: %+v", st)
		}
		if got := e.reopenAndReplay(); len(got) != 5 {
			t.Fatalf("replayed %d", len(got))
		}
	})
	t.Run("mode 0 acks on append", func(t *testing.T) {
		e := newCommitEnv(t, wal.Options{}, Options{})
		e.mode.Store(0)
		for i := 0; i < 5; i++ {
			lsn, _ := e.append("a")
			if e.p.DurableLSN() != lsn {
				t.Fatalf("mode 0: DurableLSN %d right after Append of %d", e.p.DurableLSN(), lsn)
			}
		}
		if st := e.p.Stats(); st.Groups != 0 {
			t.Fatalf("mode 0 wrote before its tick: %+v", st)
		}
		if err := e.p.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		if st := e.p.Stats(); st.Commits != 5 || st.Syncs != 1 {
			t.Fatalf("mode 0 after Flush: %+v", st)
		}
		if got := e.reopenAndReplay(); len(got) != 5 {
			t.Fatalf("replayed %d", len(got))
		}
	})
	t.Run("mode 0 ticks", func(t *testing.T) {
		e := newCommitEnv(t, wal.Options{}, Options{})
		e.mode.Store(0)
		e.append("a")
		deadline := time.Now().Add(5 * backgroundSyncInterval)
		for e.p.Stats().Syncs == 0 {
			if time.Now().After(deadline) {
				t.Fatal("mode 0 never wrote and synced on its own")
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
	t.Run("switch to mode 0 does not strand a waiter", func(t *testing.T) {
		g := newGate()
		e := newCommitEnv(t, wal.Options{}, Options{SyncDelay: g.delay})
		g.armed.Store(true)
		first, _ := e.append("first")
		<-g.entered // the writer is syncing first
		second, _ := e.append("second")
		e.mode.Store(0) // second was queued under mode 1, is not acked at Append
		g.armed.Store(false)
		close(g.release)
		for e.p.DurableLSN() < first { // no waiter registered: poll
			time.Sleep(time.Millisecond)
		}
		time.Sleep(20 * time.Millisecond) // let the writer go idle
		if st := e.p.Stats(); st.Groups != 1 {
			t.Fatalf("second was written without a waiter in mode 0 (%+v); the test no longer covers the case", st)
		}
		ctx, cancel := context.WithTimeout(ctx, backgroundSyncInterval/2)
		defer cancel()
		if err := e.p.WaitDurable(ctx, second); err != nil {
			t.Fatalf("waiter on an lsn queued before a switch to mode 0: %v", err)
		}
	})
}

func TestMaxGroupBytes(t *testing.T) {
	g := newGate()
	e := newCommitEnv(t, wal.Options{}, Options{MaxGroupBytes: 1000, SyncDelay: g.delay})
	g.armed.Store(true)
	e.append("first")
	<-g.entered // queue up the rest while the writer is stuck in a sync
	payload := string(make([]byte, 300))
	for i := 0; i < 30; i++ {
		e.append(payload)
	}
	e.append(string(make([]byte, 5000))) // bigger than a group on its own
	g.armed.Store(false)
	close(g.release)
	if err := e.p.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	st := e.p.Stats()
	// 3 records of 317 framed bytes fit in 1000: 30 records need 10 groups.
	if st.Commits != 32 || st.Groups != 12 {
		t.Fatalf("stats %+v, want 32 commits in 12 groups", st)
	}
	if got := e.reopenAndReplay(); len(got) != 32 {
		t.Fatalf("replayed %d", len(got))
	}
}

func TestMeasureFsync(t *testing.T) {
	d, err := MeasureFsync(t.TempDir(), 5)
	if err != nil || d <= 0 {
		t.Fatalf("MeasureFsync = %v, %v", d, err)
	}
}
