// Package counters keeps the statement counters of SHOW GLOBAL STATUS
// (Questions, Queries, Com_xxx per statement kind, Threads_running,
// Slow_queries) for one database. Every counter is an atomic, updated by
// the session that runs the statement and read by SHOW STATUS from any
// goroutine; no lock is taken.
package counters
