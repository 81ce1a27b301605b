// Package asynccommit is plrun's commit pipeline: it assigns LSNs, groups
// commit records into log writes, syncs, and publishes the durable ("ack")
// watermark that every acknowledgement to a client waits for (DESIGN.md
// invariants 1, 3, 5).
//
// # Flow
//
//	session goroutines                       writer goroutine (exactly one)
//	------------------                       ------------------------------
//	Append(kind, payload)                    wake on kick / 1 s ticker / Close
//	  mu: lsn = ++nextLSN                    mu: take the whole queue (<= MaxGroupBytes)
//	      frame record into queue   ----->   wal.Log.AppendGroup(group)   one entry
//	  kick writer if queue was empty         mode 1: wal.Log.Sync(), then ack
//	WaitDurable(ctx, lsn)                    mode 2: ack; Sync about once a second
//	  until DurableLSN() >= lsn  <-------    close+replace the notify channel
//
// While the writer is in an fsync, later Appends pile up in the queue and
// become the next group: group size adapts to load, and one fsync covers
// everything written before it.
//
// # Invariants
//
//   - LSN order == queue order == log order: LSNs are assigned and records
//     queued in one critical section, and only the writer dequeues.
//   - The ack watermark (DurableLSN) is monotone. Mode 1 (default): it is
//     raised to an LSN only after the group holding it is written and
//     fsynced. Mode 2: after the write (MySQL's innodb_flush_log_at_trx_commit
//     = 2). Mode 0: at Append. The watermark is one number, so switching a
//     running pipeline to mode 0 also acknowledges earlier LSNs.
//   - No waiter waits on a timer in mode 1 or 2: the writer writes every group
//     at once, and in mode 1 syncs it at once. In mode 0 a waiter makes the
//     writer write what is queued without waiting for its tick.
//   - Fail-stop: the first write or sync error stops all writing. Append then
//     fails; every waiter on an LSN above the watermark, present or future,
//     gets an error wrapping ErrOutcomeUnknown and the cause. Queued records
//     are dropped; a restart recovers the log's intact prefix.
//   - Flush writes and fsyncs everything appended before it, in any mode.
//     Close does the same, then stops the writer. The wal.Log stays the
//     caller's to close.
//
// # Concurrency and lock order
//
// Append, WaitDurable, Flush, DurableLSN, LastLSN, Err and Stats are safe
// from any number of goroutines; Close from any goroutine, any number of
// times. Lock order: Pipeline.mu, then notifyMu; no lock is held across I/O
// or a channel wait. The writer takes Pipeline.mu only to take a group, to
// check the queue size in mode 0, and to record a fail-stop; it tells
// Options.OnFailStop (the error log) once, before the waiters wake.
//
// Waiting: one notify channel is closed and replaced on each watermark
// move, and only when someone waits. Every waiter wakes and rechecks its LSN;
// with one group in flight a waiter wakes about twice (its group, or the one
// before), so this costs one allocation per group instead of one per waiter.
//
// # Histograms
//
// Commit latency (Append to acknowledgement), sync latency and group size
// (histograms.go) are observed by the writer alone. A committer pays one
// monotonic clock read in Append, outside mu; the writer copies each taken
// record's stamp into its own ackQueue and observes it when the watermark
// covers it, so the committers never touch a histogram.
package asynccommit
