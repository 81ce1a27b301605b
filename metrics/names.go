package metrics

import (
	"github.com/plrun/plrun/engine"
	"github.com/plrun/plrun/internal/histogram"
)

// scalars are the counters and gauges, grouped as the README lists them.
// Where SHOW GLOBAL STATUS has the same number its name is in the help.
var scalars = []scalar{
	// The commit pipeline and the log.
	counter("plrun_log_records_total", "Commit records written to the log (Plrun_commits).",
		func(m *engine.Metrics) float64 { return float64(m.Pipeline.Commits) }),
	counter("plrun_log_groups_total", "Log entries written, one per commit group (Plrun_log_groups).",
		func(m *engine.Metrics) float64 { return float64(m.Pipeline.Groups) }),
	counter("plrun_log_written_bytes_total", "Framed bytes written to the log (Plrun_log_bytes).",
		func(m *engine.Metrics) float64 { return float64(m.Pipeline.Bytes) }),
	counter("plrun_log_syncs_total", "Log fsyncs (Plrun_log_syncs).",
		func(m *engine.Metrics) float64 { return float64(m.Pipeline.Syncs) }),
	gauge("plrun_log_last_lsn", "The last LSN assigned to a log record (Plrun_last_lsn).",
		func(m *engine.Metrics) float64 { return float64(m.LastLSN) }),
	gauge("plrun_log_durable_lsn", "The durable (acknowledgement) LSN: every commit at or below it may be acknowledged (Plrun_durable_lsn).",
		func(m *engine.Metrics) float64 { return float64(m.DurableLSN) }),
	counter("plrun_commits_total", "Transactions committed, including those that wrote only temporary tables.",
		func(m *engine.Metrics) float64 { return float64(m.Txns.Commits) }),
	counter("plrun_rollbacks_total", "Transactions rolled back (Plrun_rollbacks).",
		func(m *engine.Metrics) float64 { return float64(m.Txns.Rollbacks) }),
	counter("plrun_large_transactions_total", "Transactions whose redo went to the log in chunks (Plrun_large_trx).",
		func(m *engine.Metrics) float64 { return float64(m.Txns.LargeTxns) }),
	counter("plrun_large_transaction_chunks_total", "Redo chunks of large transactions (Plrun_large_trx_chunks).",
		func(m *engine.Metrics) float64 { return float64(m.Txns.Chunks) }),

	// Early lock release.
	counter("plrun_elr_early_releases_total", "Commits that released their row locks before their record was durable (Elr_early_releases).",
		func(m *engine.Metrics) float64 { return float64(m.Locks.EarlyReleases) }),
	counter("plrun_elr_dependent_waits_total", "New lock holders that waited for ELR dependents to become durable, past _max_elr_dependent_trx_count (Elr_dependent_limit_waits).",
		func(m *engine.Metrics) float64 { return float64(m.Locks.DependentLimitWaits) }),
	counter("plrun_elr_reader_waits_total", "Replies held until a version they read, committed by another transaction, was durable (Elr_reader_waits).",
		func(m *engine.Metrics) float64 { return float64(m.Txns.ReaderWaits) }),

	// Hot-row group update.
	counter("plrun_hotrow_groups_total", "Hot-row update groups run, one leader each (Group_update_groups).",
		func(m *engine.Metrics) float64 { return float64(m.HotRow.Groups) }),
	counter("plrun_hotrow_followers_total", "Hot-row updates that joined a leader's group (Group_update_followers).",
		func(m *engine.Metrics) float64 { return float64(m.HotRow.Followers) }),

	// Row locks.
	counter("plrun_lock_waits_total", "Row lock requests that had to wait (Innodb_row_lock_waits).",
		func(m *engine.Metrics) float64 { return float64(m.Locks.LockWaits) }),
	gauge("plrun_lock_waiters", "Transactions waiting for a row lock now (Innodb_row_lock_current_waits).",
		func(m *engine.Metrics) float64 { return float64(m.Locks.CurrentWaiters) }),
	counter("plrun_lock_wait_timeouts_total", "Lock waits that ended in error 1205 (Innodb_row_lock_timeouts).",
		func(m *engine.Metrics) float64 { return float64(m.Locks.LockWaitTimeouts) }),
	counter("plrun_deadlocks_total", "Lock requests refused with error 1213 (Innodb_deadlocks).",
		func(m *engine.Metrics) float64 { return float64(m.Locks.Deadlocks) }),

	// Statements.
	counter("plrun_questions_total", "Statements clients sent (Questions).",
		func(m *engine.Metrics) float64 { return float64(m.Statements.Questions) }),
	counter("plrun_queries_total", "Statements run, the ones procedures ran included (Queries).",
		func(m *engine.Metrics) float64 { return float64(m.Statements.Queries) }),
	counter("plrun_slow_queries_total", "Statements that ran longer than long_query_time (Slow_queries).",
		func(m *engine.Metrics) float64 { return float64(m.Statements.Slow) }),
	gauge("plrun_threads_running", "Sessions executing a statement now (Threads_running).",
		func(m *engine.Metrics) float64 { return float64(m.Statements.Running) }),

	// Connections.
	gauge("plrun_threads_connected", "Open sessions (Threads_connected).",
		func(m *engine.Metrics) float64 { return float64(m.ThreadsConnected) }),
	counter("plrun_connections_total", "Connection attempts, admitted or not (Connections).",
		func(m *engine.Metrics) float64 { return float64(m.Net.Connections) }),
	gauge("plrun_max_used_connections", "The most logged-in connections open at once (Max_used_connections).",
		func(m *engine.Metrics) float64 { return float64(m.Net.MaxUsed) }),
	counter("plrun_aborted_connects_total", "Connection attempts that never logged in: failed logins, refusals, dropped handshakes (Aborted_connects).",
		func(m *engine.Metrics) float64 { return float64(m.Net.AbortedConnects) }),
	counter("plrun_aborted_clients_total", "Logged-in connections that ended without COM_QUIT (Aborted_clients).",
		func(m *engine.Metrics) float64 { return float64(m.Net.AbortedClients) }),
	counter("plrun_connection_errors_max_connections_total", "Connections refused with error 1040 because max_connections were open (Connection_errors_max_connections).",
		func(m *engine.Metrics) float64 { return float64(m.Net.RefusedMaxConnections) }),
	counter("plrun_received_bytes_total", "Bytes received from clients (Bytes_received).",
		func(m *engine.Metrics) float64 { return float64(m.Net.BytesReceived) }),
	counter("plrun_sent_bytes_total", "Bytes sent to clients (Bytes_sent).",
		func(m *engine.Metrics) float64 { return float64(m.Net.BytesSent) }),

	// The worker pool.
	gauge("plrun_workers_busy", "Engine workers executing a statement now (Plrun_workers_busy).",
		func(m *engine.Metrics) float64 { return float64(m.WorkersBusy) }),
	gauge("plrun_workers_limit", "The worker pool's size (plrun_workers).",
		func(m *engine.Metrics) float64 { return float64(m.WorkersLimit) }),

	// Checkpoints.
	counter("plrun_checkpoints_total", "Checkpoints written: CHECKPOINT, automatic ones past plrun_checkpoint_log_size (Plrun_checkpoints).",
		func(m *engine.Metrics) float64 { return float64(m.Checkpoints) }),
	counter("plrun_checkpoint_failures_total", "Checkpoints that failed.",
		func(m *engine.Metrics) float64 { return float64(m.CheckpointFailures) }),

	gauge("plrun_uptime_seconds", "Seconds since the engine opened (Uptime).",
		func(m *engine.Metrics) float64 { return m.Uptime.Seconds() }),
}

// distributions are the histograms.
var distributions = []distribution{
	hist("plrun_commit_latency_seconds", "Per commit record, from its append to the log until it was durable and could be acknowledged (0 under innodb_flush_log_at_trx_commit=0).", nanosecond,
		func(m *engine.Metrics) histogram.Snapshot { return m.PipelineHistograms.CommitLatency }),
	hist("plrun_log_sync_latency_seconds", "Per log fsync, from its start until its group counted as durable (plrun_log_sync_delay_us included).", nanosecond,
		func(m *engine.Metrics) histogram.Snapshot { return m.PipelineHistograms.SyncLatency }),
	hist("plrun_commit_group_size_records", "Commit records per log entry (one group commit).", 1,
		func(m *engine.Metrics) histogram.Snapshot { return m.PipelineHistograms.GroupSize }),
	hist("plrun_lock_wait_seconds", "Per row lock wait, however it ended (granted, timed out, cancelled).", nanosecond,
		func(m *engine.Metrics) histogram.Snapshot { return m.LockHistograms.LockWait }),
	hist("plrun_elr_dependent_wait_seconds", "Per ELR dependent wait: a new lock holder waiting for earlier holders' commits to become durable.", nanosecond,
		func(m *engine.Metrics) histogram.Snapshot { return m.LockHistograms.DependentWait }),
	hist("plrun_hotrow_group_size_members", "Statements per hot-row update group, the leader included.", 1,
		func(m *engine.Metrics) histogram.Snapshot { return m.HotRowGroupSizes }),
	hist("plrun_checkpoint_duration_seconds", "Per checkpoint, how long it took (failed ones included).", nanosecond,
		func(m *engine.Metrics) histogram.Snapshot { return m.CheckpointDuration }),
}
