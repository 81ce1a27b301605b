// Package bench holds the seed workloads as library code, so that the
// `plrun bench` command, tests and other tools run exactly the same thing.
//
//   - RunHotrow is seed 000 (OceanBase early lock release): one table
//     sbtest1 created with the seed's DDL, one row, Threads sessions each
//     running Updates autocommit `update sbtest1 set k=k+1 where id=1`.
//     It reports TPS and p50/p95/p99 latency, the commit-group and log-sync
//     counters the run moved, this disk's fsync latency measured in the
//     same run (the one-sync-per-update bound is 1/(fsync+sync delay)),
//     and it verifies that k grew by exactly Threads x Updates: a run
//     that loses or invents an increment fails with ErrVerify.
//   - RunPlcommit is seed 003 (OceanBase PL async commit): a procedure
//     that runs n x (INSERT; COMMIT), in Lua or JavaScript, CALLed
//     repeatedly with ob_enable_pl_async_commit off or on, by one session
//     or by Concurrency sessions at once; it verifies the row count.
//
// Each run opens its own database in the directory it is given, which it
// empties first: the counters of SHOW GLOBAL STATUS then describe that
// run alone (they are also read before and after the timed part and
// subtracted). A run owns every goroutine it starts (the sessions and the
// once-a-second progress printer) and waits for them before it returns.
// Runs are not meant to be executed concurrently with each other.
package bench
