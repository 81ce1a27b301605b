package engine

import (
	"sort"
	"strconv"
	"time"
)

// Status is the engine's counters for SHOW GLOBAL STATUS and benchmarks.
func (e *Engine) Status() [][2]string {
	ps := e.pipe.Stats()
	ls := e.locks.Stats()
	ts := e.txm.Stats()
	avg := "0"
	if ps.Groups > 0 {
		avg = strconv.FormatFloat(float64(ps.Commits)/float64(ps.Groups), 'f', 2, 64)
	}
	syncAvg := "0"
	if ps.Syncs > 0 {
		syncAvg = strconv.FormatUint(ps.SyncNanos/ps.Syncs/1000, 10)
	}
	u := func(v uint64) string { return strconv.FormatUint(v, 10) }
	e.sessMu.Lock()
	conns := len(e.sessions)
	e.sessMu.Unlock()
	hs := e.hot.Stats()
	ss := e.txm.StoreStats()
	groupAvg := "0"
	if hs.Groups > 0 {
		groupAvg = strconv.FormatFloat(float64(hs.Groups+hs.Followers)/float64(hs.Groups), 'f', 2, 64)
	}
	rows := [][2]string{
		{"Group_update_avg_group_size", groupAvg},
		{"Group_update_followers", u(hs.Followers)},
		{"Group_update_groups", u(hs.Groups)},
		{"Group_update_max_group_size", u(hs.MaxGroupSize)},
		{"Elr_dependent_limit_waits", u(ls.DependentLimitWaits)},
		{"Elr_early_releases", u(ls.EarlyReleases)},
		{"Elr_reader_waits", u(ts.ReaderWaits)},
		{"Innodb_deadlocks", u(ls.Deadlocks)},
		{"Plrun_large_trx", u(ts.LargeTxns)},
		{"Plrun_large_trx_chunks", u(ts.Chunks)},
		{"Innodb_row_lock_current_waits", strconv.FormatInt(ls.CurrentWaiters, 10)},
		{"Innodb_row_lock_timeouts", u(ls.LockWaitTimeouts)},
		{"Innodb_row_lock_waits", u(ls.LockWaits)},
		{"Plrun_checkpoints", u(e.ckpt.done.Load())},
		{"Plrun_commit_group_size_avg", avg},
		{"Plrun_commits", u(ps.Commits)},
		{"Plrun_durable_lsn", u(e.pipe.DurableLSN())},
		{"Plrun_last_lsn", u(e.pipe.LastLSN())},
		{"Plrun_log_bytes", u(ps.Bytes)},
		{"Plrun_log_groups", u(ps.Groups)},
		{"Plrun_log_sync_avg_us", syncAvg},
		{"Plrun_log_syncs", u(ps.Syncs)},
		{"Plrun_rollbacks", u(ts.Rollbacks)},
		{"Plrun_store_applied_lsn", u(ss.Applied)},
		{"Plrun_store_flushed_lsn", u(ss.Flushed)},
		{"Plrun_store_apply_queue", strconv.Itoa(ss.Queued)},
		{"Plrun_rows_resident", strconv.FormatInt(ss.ResidentRows, 10)},
		{"Plrun_rows_resident_bytes", strconv.FormatInt(ss.ResidentBytes, 10)},
		{"Plrun_rows_resident_budget", strconv.FormatInt(ss.Budget, 10)},
		{"Plrun_rows_evicted", u(ss.Evicted)},
		{"Plrun_store_disk_bytes", u(e.store.DiskUsage())},
		{"Plrun_store_block_cache_bytes", strconv.FormatInt(ss.BlockCache, 10)},
		{"Plrun_store_memtable_bytes", strconv.FormatInt(ss.Memtables, 10)},
		{"Plrun_query_log_dropped", u(e.qlog.Dropped())},
		{"Plrun_query_log_written", u(e.qlog.Written())},
		{"Plrun_workers_busy", strconv.Itoa(e.workers.busyCount())},
		{"Threads_connected", strconv.Itoa(conns)},
		{"Uptime", strconv.FormatInt(int64(time.Since(e.started).Seconds()), 10)},
	}
	rows = append(rows, e.net.rows()...)
	rows = append(rows, e.db.Counters.Rows()...)
	sort.Slice(rows, func(i, j int) bool { return rows[i][0] < rows[j][0] })
	return rows
}
