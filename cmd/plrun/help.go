package main

import (
	"flag"
	"fmt"
)

// settings are the variables a user most often sets with --set (or SET
// GLOBAL, or ALTER SYSTEM SET); SHOW VARIABLES lists them all.
var settings = []struct{ name, def, what string }{
	{"enable_early_lock_release", "OFF", "release a committing transaction's row locks once its commit record has an LSN, before the log sync (ELR, seed 000)"},
	{"_max_elr_dependent_trx_count", "0", "most not-yet-durable transactions stacked on one row under ELR; past it a writer waits (0 = no limit)"},
	{"ob_enable_pl_async_commit", "OFF", "a COMMIT inside a procedure does not wait for the log sync; the CALL's reply does (seed 003; session or global)"},
	{"innodb_flush_log_at_trx_commit", "1", "1: sync the log for every commit group; 2: write each group, sync once a second; 0: sync once a second"},
	{"innodb_lock_wait_timeout", "50", "seconds a statement waits for a row lock before error 1205"},
	{"plrun_log_sync_delay_us", "0", "microseconds added to every log sync, to model a slow or remote log (bench --sync-delay)"},
	{"plrun_workers", "64", "statements and CALLs executing at once (the worker pool; --workers)"},
	{"hotspot", "OFF", "group single-row UPDATEs of one hot row hinted COMMIT_ON_SUCCESS into one lock and one commit (seed 002)"},
	{"hotspot_for_autocommit", "OFF", "also group plain autocommit UPDATEs (with hotspot ON)"},
	{"hotspot_update_max_wait_time", "100", "microseconds a lone group leader waits for followers"},
	{"hotspot_lock_type", "OFF", "accepted for PolarDB compatibility; group members never queue on the row lock"},
	{"consensus_large_trx", "ON", "log a transaction past consensus_max_log_size (20M) in chunks of consensus_large_trx_split_size (2M) (seed 004)"},
	{"max_execution_time", "0", "milliseconds a statement or CALL may run before error 3024 (0 = no limit)"},
	{"plrun_max_statement_memory", "1G", "bytes one statement or CALL may hold (rows, sorts, hash tables, Lua/JS strings and tables); past it error 3170"},
	{"max_allowed_packet", "64M", "largest statement (1153) and largest string a function builds (NULL with warning 1301)"},
	{"transaction_isolation", "REPEATABLE-READ", "REPEATABLE-READ (one read view per transaction) or READ-COMMITTED; session or global"},
	{"sql_mode", "STRICT_TRANS_TABLES,...", "MariaDB's modes that plrun honours (README: SQL); others are refused with 1231"},
	{"plrun_checkpoint_log_size", "67108864", "log bytes past which a checkpoint runs in the background"},
	{"plrun_cache_size", "128M", "memory for table data (issue 15); set at start only (--set, option files, bench --cache-size); sizes take K, M, G, T"},
	{"secure_file_priv", "\"\"", "which files LOAD PROCEDURE may read: \"\" any, a folder, or NULL (open-time only)"},
}

func usage(fs *flag.FlagSet) {
	w := fs.Output()
	fmt.Fprint(w, `plrun: a MySQL-dialect database engine with Lua and JavaScript stored procedures.

Usage:
  plrun [flags]                 REPL on the data folder (batch mode when stdin is not a terminal)
  plrun [flags] -e "SQL; SQL"   run statements, print results tab-separated, exit 1 on the first error
  plrun bench hotrow [flags]    seed 000: N sessions x M updates of one row, ELR off/on (plrun bench hotrow --help)
  plrun bench plcommit [flags]  seed 003: a procedure doing n x (INSERT; COMMIT), async commit off/on
  plrun bench inventory [flags] seed 002: UPDATE ... SET c=c+1 WHERE id=1 over 1..1024 threads, hotspot off/on, beside PolarDB
  plrun bench largetrx [flags]  seed 004: one large COMMIT beside small commits, splitting off/on
  plrun bench load --rows N     issue 15: load the sysbench table (--data DIR --keep --cache-size 512M): rows/s, peak RSS
  plrun bench open --data DIR   issue 15: open time and RSS of a loaded folder, then point selects' p50/p99
  plrun bench dirty --data DIR  issue 15: UPDATEs until --log-mb 64 of log, then SIGKILL, for bench open to replay
  plrun bench --help            the workloads and their shared flags: --time, --warmup, --report-interval, --chart, --yes
  plrun serve [flags]           MySQL protocol server (plrun serve --help)
  plrun recover [--truncate-damaged]   check the log; cut a damaged one on request (plrun recover --help)
  plrun dump [--routines] [DB ...]     the databases as SQL in mysqldump's layout (load it with plrun or mysql)
  plrun version, --version      the version, commit and Go toolchain
  plrun help                    this text

Flags:
`)
	fs.PrintDefaults()
	fmt.Fprint(w, "\nSettings (--set name=value, SET GLOBAL name = value; SHOW VARIABLES lists all):\n")
	for _, s := range settings {
		fmt.Fprintf(w, "  %-32s default %-4s %s\n", s.name, s.def, s.what)
	}
	fmt.Fprint(w, "\nStatus counters: SHOW GLOBAL STATUS LIKE 'Plrun%' (commits, log groups and syncs, average group size and sync time),\n"+
		"  'Plrun_large_trx%' (chunked large transactions), 'Elr%' (early releases, dependent waits, readers that waited),\n"+
		"  'Innodb_row_lock%' and 'Innodb_deadlocks', 'Group_update%' (hot-row groups), 'Uptime'.\n")
}
