// Package engine is the database itself: Open creates or opens a data
// folder, takes its lock, applies the option files' settings
// (Config.OptionSettings), then persisted settings, then --set, each
// recorded as the value's origin for performance_schema.variables_info
// (origins.go), recovers (recover.go: the table store in <data>/store,
// then the log after the LSN the store holds; a folder of the format
// before the store — a snapshot beside the log — is loaded from its
// snapshot and log once and written into a new store: the upgrade; a store
// of a newer format is refused before anything in the folder changes), and
// wires storage, txn, lockmgr, asynccommit, wal, hotrow and procs into one
// sql.Database that its sessions share. It owns the global settings
// (mirrored into atomics for the hot paths), the worker pool, the session
// registry and KILL,
// checkpoints (by CHECKPOINT and automatically past
// plrun_checkpoint_log_size: the store flushed, then the log before what it
// flushed dropped), persisted settings (plrun-auto.cnf), the
// status counters and the general and slow query logs' writer
// (querylogs.go: sql/querylog, pointed at the files the variables name),
// and implements sql.Engine for the sessions. Config.Logger is the
// error log: recovery, checkpoints, the commit pipeline's fail-stop
// (asynccommit.Options.OnFailStop), KILL (through sql.Database.Logger).
//
// Metrics (metrics.go) reads every counter and histogram of the packages
// below in one call, for the Prometheus endpoint (package metrics); the
// engine itself imports nothing of Prometheus.
//
// The engine imports no VM runtime: the caller lists them in
// Config.Runtimes (runtime/builtin for Lua and JavaScript). SQL/PSM
// (sql/psm), plrun's own language, is always registered beside them.
//
// Lock order: sessMu, persistMu and ckptMu are leaves (nothing else is
// taken while one is held, except that a checkpoint runs txn's checkpoint
// under ckptMu); the globals' lock is taken inside persistMu by
// PersistSetting.
//
// Invariants kept here: Open returns only after the log is replayed to its
// last intact group, so no session sees a state older than an
// acknowledged commit; an upgrade removes the old snapshots only after the
// store holding their rows is flushed and marked, so a crash during it
// leaves a folder the next open upgrades again (and snapshots a crash left
// beside a marked store are removed at open, never read); Close cancels
// running statements, stops the commit pipeline (which syncs what it holds)
// and closes the log before releasing the folder lock.
package engine
