// Package enginetest holds plrun's engine-level durability and concurrency
// tests (issues 2, 3 and 4). It has no non-test code besides this comment.
//
//   - bank_test.go: a randomized bank-transfer workload over 16-32
//     goroutines in explicit transactions (SELECT ... FOR UPDATE or direct
//     UPDATEs, deadlocks 1213 and lock wait timeouts 1205 retried), ELR off
//     and on; SELECT SUM(balance) must never change, concurrently, at the
//     end, and after close and reopen.
//   - crash_test.go: the test binary re-executes itself as a child
//     (PLRUN_ENGINETEST_CHILD) that runs load on a data folder and prints
//     every acknowledged operation; the parent SIGKILLs it at a random time
//     (100-400 ms), reopens the folder in-process and checks that every
//     acknowledged commit is there, the hot counter lies between the
//     acknowledged and the attempted increments, nothing is half applied,
//     and the chain of ELR-stacked transactions on a hot row is a clean
//     prefix. A second variant CALLs a Lua procedure that commits in a loop
//     under ob_enable_pl_async_commit. PLRUN_SOAK=1 (or -soak) runs many
//     more iterations (make soak).
//   - fault_test.go: log write and sync failures injected through
//     engine.Config.WalOptions: the statement in flight gets 1180 (outcome
//     unknown), later ones fail clearly, nothing panics or hangs, and a
//     reopen without faults recovers a prefix holding every acknowledged
//     commit. The ELR case of issue 4: T1 releases early, T2 stacks on it,
//     the log fails: neither client is acknowledged and no reader ever
//     returns T1's data.
//   - storecrash_test.go (issue 15, the table store): a bank on the store
//     (storechild_test.go: DML transfers, CALLs whose commits are
//     asynchronous, ELR on and off, innodb_flush_log_at_trx_commit 1 and
//     2, checkpoints every 100 ms and every 1 MB of log) whose child
//     kills itself at the Nth store flush (engine.Config.OnStoreFlush),
//     between a checkpoint's flush and its log truncation
//     (Config.BeforeTruncate), or is killed by the parent 0-3 ms into a
//     truncation. After each kill: every acknowledged transfer is there,
//     each balance is what the transfers present make it, the total is
//     exact, the index on src finds what the scan finds; then more work,
//     a clean close and a second reopen. childrun_test.go runs such a
//     child (superviseChild).
//   - evictstress_test.go: a table five times its row budget
//     (plrun_cache_size 8M) under point updates, REPEATABLE READ range
//     sums that must not move, index reads, delete/insert churn and
//     whole-table reads while the applier evicts; no lost update, counts
//     exact, before and after a reopen. evictbudget_test.go: an eviction
//     pass stops near the budget's goal instead of emptying the cache.
package enginetest
