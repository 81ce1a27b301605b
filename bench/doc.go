// Package bench holds the seed workloads as library code, so that the
// `plrun bench` command, tests and other tools run exactly the same thing.
//
//   - RunHotrow is seed 000 (OceanBase early lock release): one table
//     sbtest1 created with the seed's DDL, one row, Threads sessions each
//     running autocommit `update sbtest1 set k=k+1 where id=1`, Updates
//     times or for Load.Time. It reports TPS and p50/p95/p99 latency, the
//     commit-group and log-sync counters the run moved, this disk's fsync
//     latency measured in the same run (the one-sync-per-update bound is
//     1/(fsync+sync delay)), and it verifies that k grew by exactly the
//     number of updates that succeeded: a run that loses or invents an
//     increment fails with ErrVerify.
//   - RunInventory is seed 002 (PolarDB hot-row group update): sysbench's
//     oltp_inventory with one row, `UPDATE sbtest1 SET c=c+1 WHERE id=1`,
//     hinted COMMIT_ON_SUCCESS ROLLBACK_ON_FAIL TARGET_AFFECT_ROW(1) with
//     hotspot on, swept over concurrency points (the seed's are
//     InventoryThreads) in one database; PolarDB holds the seed's
//     published figures to print beside it.
//   - RunPlcommit is seed 003 (OceanBase PL async commit): a procedure
//     that runs n x (INSERT; COMMIT), in Lua or JavaScript, CALLed
//     repeatedly with ob_enable_pl_async_commit off or on, by one session
//     or by Concurrency sessions at once; it verifies the row count.
//   - RunLargeTrx is seed 004 (PolarDB-X large transaction splitting).
//   - RunTableLoad, RunOpen and RunDirty are issue 15's data-size runs on
//     one folder the caller names (they do not empty it): sysbench's
//     sbtest.sbtest1 loaded with N rows (oltp_common.lua's DDL and value
//     shapes, multi-row autocommit INSERTs, then CREATE INDEX k_1), the
//     open and recovery time with the process's memory (VmRSS and VmHWM
//     from /proc/self/status), point-select latency, and a crash left
//     behind with a chosen amount of log to replay (RunDirty hands its
//     result to a crash function while its sessions still update).
//
// The first three run under a Load, as sysbench does: bounded by count or
// by time (--time), after an unmeasured warm-up, with a progress line per
// report interval ("[ 2s ] thds: 50 tps: ... lat (ms,95%): ... err/s:
// ...", and an ETA when bounded by count); the lines' figures are kept in
// the result as Intervals. WriteChart draws a result's throughput and p95
// latency, off vs on, with gonum/plot.
//
// Each run opens its own database in the directory it is given, which it
// empties first: the counters of SHOW GLOBAL STATUS then describe that
// run alone (they are also read at the end of the warm-up and at the end,
// and subtracted). A run owns every goroutine it starts (the sessions and
// the progress printer) and waits for them before it returns. Runs are
// not meant to be executed concurrently with each other.
package bench
