// Package lockmgr is plrun's row lock manager: exclusive row locks with FIFO
// wait queues, deadlock detection on a waits-for graph, lock wait timeouts,
// and the lock side of early lock release (ELR).
//
// # Role
//
// The transaction layer (txn/) calls Acquire before it writes a row or reads
// it with SELECT ... FOR UPDATE, and at the end of the transaction calls either
// ReleaseAll (rollback, or commit once the commit record is durable) or
// ReleaseEarly (ELR: the commit record has an LSN but is not yet durable).
// Only exclusive locks exist; plain reads take no locks.
//
// # Flow of a request
//
//	Acquire(ctx, txn, key)
//	   |
//	   v
//	lock key's shard ---- txn already holds key? ---------------> return nil
//	   |  purge ELR marks that are durable now
//	   |
//	   +-- key free --> txn becomes holder -------------------+
//	   |                                                      |
//	   +-- key held --> lock waits-for graph                  |
//	                    would txn -> holder close a cycle? ---+--> ErrDeadlock
//	                    no: record edge, append waiter to the   |    (requester is
//	                    key's FIFO queue, unlock everything     |     the victim)
//	                         |                                  |
//	                         v                                  |
//	              select { waiter.signal, ctx.Done(), timer }   |
//	                 |            |            |                |
//	             granted     ctx ended     timed out            |
//	                 |            \____________/                |
//	                 |      relock shard: granted meanwhile?    |
//	                 |       yes -> the grant wins              |
//	                 |       no  -> leave queue, drop edge,     |
//	                 |              return ctx err / timeout    |
//	                 v                                          v
//	       pending ELR marks on key >= MaxELRDependents ?  (key is held by txn now)
//	           no --> record key in txn's held set --> return nil
//	           yes -> Durability.WaitDurable(lsn that brings the count below
//	                  the limit), bounded by ctx and what is left of the lock
//	                  wait timeout; on error hand the key on and return it.
//
//	ReleaseAll(txn) / ReleaseEarly(txn, lsn)
//	   take txn's held set; for each key (in acquisition order):
//	   lock shard, [ELR: append elrMark{lsn}], hand the key to the queue head:
//	   holder = head, drop head's waits-for edge, send on head's signal channel.
//
// There are no background goroutines. A waiter waits on its own capacity-1
// signal channel; whoever releases a key makes the next waiter the holder
// while holding the shard mutex and then signals it, so the handoff is a
// state change, not a message that can be lost: a waiter whose ctx or timer
// fires re-checks its granted flag under the shard mutex, and if the grant
// won the race it keeps the lock (Acquire returns nil). ELR marks are purged
// lazily by whoever next touches the shard (Acquire, ReleaseEarly,
// PendingDependents), using Durability.DurableLSN.
//
// # Fairness
//
// Waiters on a key are granted strictly in FIFO order of enqueue. Exceptions:
//   - re-entrant Acquire by the current holder returns at once;
//   - a waiter that leaves (deadlock victim, timeout, cancellation) gives up
//     its place; the ones behind it move up;
//   - a free key is taken by whoever locks the shard first (there is no queue
//     to respect when the key is free: a key with waiters is never free,
//     because release hands it on directly).
//
// A new holder that must wait for ELR dependents (see below) keeps the lock
// while it waits, so FIFO order is kept through that wait too.
//
// # Deadlocks
//
// A transaction waits on at most one key at a time, and each key has at most
// one holder, so the waits-for graph is functional: every node has at most one
// out-edge, waiter -> holder of the key it waits on. The graph only gains an
// edge when a transaction enqueues (the edge txn -> holder), or when a key is
// handed to a waiter W (the remaining waiters now point at W, but W waits on
// nothing at that moment, so no cycle can close). Hence checking at enqueue
// time, by walking holder -> key it waits on -> that key's holder -> ... until
// the walk ends or reaches the requester, finds every cycle, and the requester
// is always the victim. The graph (txn -> key it waits on, plus each waited
// key's holder) lives under one global mutex so the walk sees a consistent
// picture even though keys are sharded.
//
// # Early lock release and the dependent limit
//
// ReleaseEarly(txn, lsn) hands every key on at once and leaves an elrMark{lsn}
// on each key until DurableLSN() >= lsn. Invariant 2 of DESIGN.md makes this
// safe: the next holder commits at a higher LSN, so it cannot become durable
// before the transaction it read from. The marks bound how long that chain of
// non-durable dependents may grow: if, when a transaction becomes the holder
// of a key (fresh or by handoff), the key carries n >= MaxELRDependents
// pending marks, Acquire — still holding the lock — waits with
// Durability.WaitDurable for the LSN of mark number n-max (0-based, in LSN
// order), after which fewer than max marks are pending. With the usual
// n == max that is the oldest pending mark. The wait is counted in
// DependentLimitWaits, honours ctx, and shares the lock wait timeout with the
// queue wait (the whole Acquire waits at most LockWaitTimeout). It cannot
// deadlock with the commit pipeline: the marks' commit records already have
// LSNs, the pipeline never takes row locks, and no lockmgr mutex is held
// while waiting. While it waits the transaction counts as a holder that waits
// on nothing, which is what the deadlock detector must see.
//
// Durability may be nil: marks are then never recorded. A mark whose LSN is
// already durable at ReleaseEarly is not recorded either.
//
// # Concurrency contract
//
// Every method may be called from any goroutine. Calls for one transaction
// must not overlap (a transaction is driven by one goroutine at a time); to
// abort a transaction that is waiting, cancel the ctx of its Acquire, then
// call ReleaseAll from the goroutine that drives it.
//
// Locks (information_schema.PLRUN_LOCKS) copies the held keys and their
// queues one shard at a time under that shard's mutex alone; the lock path
// pays only a time.Now when a request has to wait (its wait start).
// A WaitClock in the request's context (WithWaitClock) sums those waits
// for a statement (the slow query log's Lock_time); it too is read only
// on the wait path.
//
// # Lock order
//
//	lockTableShard.mu  ->  waitsForGraph.mu
//	txnShard.mu is a leaf (never held with any other lockmgr mutex).
//	Durability.DurableLSN is called under a shard mutex, so it must not call
//	back into lockmgr (the commit pipeline reads an atomic). WaitDurable is
//	never called with any lockmgr mutex held.
//
// Two shard mutexes are never held at once.
//
// Histograms of lock-wait and ELR dependent-wait time (histograms.go) are
// observed only by a request that waited, after its wait and outside every
// mutex; an Acquire that does not wait touches neither.
package lockmgr
