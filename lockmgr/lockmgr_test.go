package lockmgr

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"
)

// TestLockManager runs the datadriven scripts in testdata/lockmgr.
//
// Commands:
//
//	new-txn name=<txn>                  register a txn (IDs are 1, 2, ... in order)
//	acquire txn=<txn> key=<k> [await]   Acquire in a goroutine; prints what finished,
//	                                    or "waiting" once it is observably blocked
//	                                    (await: wait for it to finish instead)
//	await txn=<txn>                     wait until txn's pending Acquire finishes
//	cancel txn=<txn>                    cancel the ctx of txn's pending Acquire
//	release txn=<txn>                   ReleaseAll
//	release-early txn=<txn> lsn=<n>     ReleaseEarly
//	set-durable lsn=<n>                 advance the fake commit pipeline
//	set [max-dependents=<n>] [lock-wait-timeout=<dur>]
//	pending key=<k>                     PendingDependents
//	print                               holders, queues, marks, waits-for edges
//	stats
//
// After each command the harness waits until every started Acquire is either
// finished or blocked (queued on a key, or in WaitDurable for an LSN not yet
// durable, with a live ctx), then prints the finished ones in start order.
func TestLockManager(t *testing.T) {
	datadriven.Walk(t, "../testdata/lockmgr", func(t *testing.T, path string) {
		env := newTestEnv()
		datadriven.RunTest(t, path, env.run)
		env.close(t)
	})
}

type testEnv struct {
	m        *Manager
	dur      *fakeDurability
	timeout  atomic.Int64 // ns
	maxDeps  atomic.Int64
	ids      map[string]TxnID
	names    map[TxnID]string
	pending  []*pendingAcquire
	startSeq int
}

type pendingAcquire struct {
	seq    int
	txn    TxnID
	key    Key
	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}
	err    error
}

func newTestEnv() *testEnv {
	e := &testEnv{
		dur:   newFakeDurability(),
		ids:   map[string]TxnID{},
		names: map[TxnID]string{},
	}
	e.timeout.Store(int64(time.Hour))
	e.m = New(Options{
		LockWaitTimeout:  func() time.Duration { return time.Duration(e.timeout.Load()) },
		MaxELRDependents: func() int { return int(e.maxDeps.Load()) },
		Durability:       e.dur,
	})
	return e
}

func (e *testEnv) close(t *testing.T) {
	for _, p := range e.pending {
		p.cancel()
		<-p.done
	}
}

func (e *testEnv) txn(t *testing.T, d *datadriven.TestData) TxnID {
	var name string
	d.ScanArgs(t, "txn", &name)
	id, ok := e.ids[name]
	if !ok {
		d.Fatalf(t, "unknown txn %s", name)
	}
	return id
}

func (e *testEnv) run(t *testing.T, d *datadriven.TestData) string {
	var out strings.Builder
	switch d.Cmd {
	case "new-txn":
		var name string
		d.ScanArgs(t, "name", &name)
		id := TxnID(len(e.ids) + 1)
		e.ids[name], e.names[id] = id, name
		return fmt.Sprintf("%s = %d", name, id)
	case "acquire":
		txn := e.txn(t, d)
		var key string
		d.ScanArgs(t, "key", &key)
		p := e.start(txn, Key(key))
		if d.HasArg("await") {
			<-p.done
		}
		e.settle(t)
		e.report(&out)
		if e.isPending(p) {
			// What WaitOf reports (PROCESSLIST's State) is what the
			// pending Acquire is doing.
			switch w, ok := e.m.WaitOf(txn); {
			case !ok:
				d.Fatalf(t, "%s: pending but WaitOf reports no wait", e.names[txn])
			case w.Key != Key(key) || w.Since.IsZero():
				d.Fatalf(t, "%s: WaitOf reports %+v, want key %s", e.names[txn], w, key)
			case w.Dependents:
				fmt.Fprintf(&out, "%s: holds %s, waiting for ELR dependents to become durable\n", e.names[txn], key)
			default:
				fmt.Fprintf(&out, "%s: waiting for %s held by %s\n", e.names[txn], key, e.names[w.Holder])
			}
		}
	case "await":
		txn := e.txn(t, d)
		for _, p := range e.pending {
			if p.txn == txn {
				<-p.done
			}
		}
		e.settle(t)
		e.report(&out)
	case "cancel":
		txn := e.txn(t, d)
		for _, p := range e.pending {
			if p.txn == txn {
				p.cancel()
			}
		}
		e.settle(t)
		e.report(&out)
	case "release":
		e.m.ReleaseAll(e.txn(t, d))
		e.settle(t)
		e.report(&out)
	case "release-early":
		var lsn uint64
		d.ScanArgs(t, "lsn", &lsn)
		e.m.ReleaseEarly(e.txn(t, d), lsn)
		e.settle(t)
		e.report(&out)
	case "set-durable":
		var lsn uint64
		d.ScanArgs(t, "lsn", &lsn)
		e.dur.setDurable(lsn)
		e.settle(t)
		e.report(&out)
	case "set":
		var n int
		if d.MaybeScanArgs(t, "max-dependents", &n) {
			e.maxDeps.Store(int64(n))
		}
		var s string
		if d.MaybeScanArgs(t, "lock-wait-timeout", &s) {
			dur, err := time.ParseDuration(s)
			if err != nil {
				d.Fatalf(t, "%v", err)
			}
			e.timeout.Store(int64(dur))
		}
	case "pending":
		var key string
		d.ScanArgs(t, "key", &key)
		return fmt.Sprintf("%s: %d pending", key, e.m.PendingDependents(Key(key)))
	case "print":
		return e.print()
	case "stats":
		s := e.m.Stats()
		return fmt.Sprintf("lock-waits=%d deadlocks=%d timeouts=%d early-releases=%d dependent-limit-waits=%d current-waiters=%d",
			s.LockWaits, s.Deadlocks, s.LockWaitTimeouts, s.EarlyReleases, s.DependentLimitWaits, s.CurrentWaiters)
	default:
		d.Fatalf(t, "unknown command %s", d.Cmd)
	}
	if out.Len() == 0 {
		return "ok"
	}
	return strings.TrimSuffix(out.String(), "\n")
}

func (e *testEnv) start(txn TxnID, key Key) *pendingAcquire {
	e.startSeq++
	ctx, cancel := context.WithCancel(context.Background())
	p := &pendingAcquire{seq: e.startSeq, txn: txn, key: key, ctx: ctx, cancel: cancel, done: make(chan struct{})}
	e.pending = append(e.pending, p)
	go func() {
		defer close(p.done)
		p.err = e.m.Acquire(ctx, txn, key)
	}()
	return p
}

func (e *testEnv) isPending(p *pendingAcquire) bool {
	for _, q := range e.pending {
		if q == p {
			return true
		}
	}
	return false
}

// settle waits until every pending Acquire is finished or blocked.
func (e *testEnv) settle(t *testing.T) {
	for start := time.Now(); ; time.Sleep(time.Millisecond) {
		running, queued := 0, 0
		for _, p := range e.pending {
			select {
			case <-p.done:
				continue
			default:
			}
			running++
			if p.ctx.Err() == nil && e.m.graph.isWaiting(p.txn) {
				queued++
			}
		}
		if running == queued+e.dur.blocked() {
			return
		}
		if time.Since(start) > 10*time.Second {
			t.Fatalf("acquires did not settle: %d running, %d queued, %d in WaitDurable",
				running, queued, e.dur.blocked())
		}
	}
}

// report prints and forgets the finished acquires, in start order.
func (e *testEnv) report(out *strings.Builder) {
	rest := e.pending[:0]
	for _, p := range e.pending {
		select {
		case <-p.done:
			if p.err == nil {
				fmt.Fprintf(out, "%s: acquired %s\n", e.names[p.txn], p.key)
			} else {
				fmt.Fprintf(out, "%s: %s: %v\n", e.names[p.txn], p.key, p.err)
			}
			p.cancel()
		default:
			rest = append(rest, p)
		}
	}
	e.pending = rest
}

func (e *testEnv) print() string {
	type keyState struct {
		key   Key
		line  string
		state *lockState
	}
	var keys []keyState
	for i := range e.m.shards {
		sh := &e.m.shards[i]
		sh.mu.Lock()
		for key, ls := range sh.mu.locks {
			var b strings.Builder
			fmt.Fprintf(&b, "%s:", key)
			if ls.held {
				fmt.Fprintf(&b, " holder=%s", e.names[ls.holder])
			} else {
				b.WriteString(" free")
			}
			if ls.head != nil {
				var q []string
				for w := ls.head; w != nil; w = w.next {
					q = append(q, e.names[w.txn])
				}
				fmt.Fprintf(&b, " queue=[%s]", strings.Join(q, " "))
			}
			if len(ls.marks) > 0 {
				fmt.Fprintf(&b, " marks=%v", ls.marks)
			}
			keys = append(keys, keyState{key: key, line: b.String(), state: ls})
		}
		sh.mu.Unlock()
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].key < keys[j].key })
	var lines []string
	for _, k := range keys {
		lines = append(lines, k.line)
	}
	e.m.graph.mu.Lock()
	var edges []string
	for txn, edge := range e.m.graph.mu.waitingOn {
		ls := edge.ls
		for _, k := range keys {
			if k.state == ls {
				edges = append(edges, fmt.Sprintf("%s->%s(%s)", e.names[txn], e.names[ls.waitHolder], k.key))
			}
		}
	}
	e.m.graph.mu.Unlock()
	sort.Strings(edges)
	if len(edges) > 0 {
		lines = append(lines, "waits-for: "+strings.Join(edges, " "))
	}
	if len(lines) == 0 {
		return "empty"
	}
	return strings.Join(lines, "\n")
}

// fakeDurability is a commit pipeline whose durable LSN moves only when the
// test says so.
type fakeDurability struct {
	mu      sync.Mutex
	durable atomic.Uint64
	changed chan struct{}
	waits   map[*durableWait]struct{}
}

type durableWait struct {
	ctx context.Context
	lsn uint64
}

func newFakeDurability() *fakeDurability {
	return &fakeDurability{changed: make(chan struct{}), waits: map[*durableWait]struct{}{}}
}

func (f *fakeDurability) DurableLSN() uint64 { return f.durable.Load() }

func (f *fakeDurability) WaitDurable(ctx context.Context, lsn uint64) error {
	w := &durableWait{ctx: ctx, lsn: lsn}
	f.mu.Lock()
	f.waits[w] = struct{}{}
	defer func() {
		f.mu.Lock()
		delete(f.waits, w)
		f.mu.Unlock()
	}()
	for f.durable.Load() < lsn {
		ch := f.changed
		f.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
		f.mu.Lock()
	}
	f.mu.Unlock()
	return nil
}

func (f *fakeDurability) setDurable(lsn uint64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if lsn > f.durable.Load() {
		f.durable.Store(lsn)
	}
	close(f.changed)
	f.changed = make(chan struct{})
}

// blocked counts WaitDurable calls that cannot return yet.
func (f *fakeDurability) blocked() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for w := range f.waits {
		if w.lsn > f.durable.Load() && w.ctx.Err() == nil {
			n++
		}
	}
	return n
}
