// Package querylog writes MySQL's two statement logs, the general query
// log (general_log: every command a session receives, as `Time Id
// Command Argument` lines) and the slow query log (slow_query_log: the
// statements that ran longer than long_query_time, each under its `#
// Time:`, `# User@Host:` and `# Query_time:` header), in MariaDB 10.11's
// file formats, so mysqldumpslow and pt-query-digest read them.
//
// Logging never waits for the disk: a session formats nothing and only
// hands a small entry to a bounded queue (Logs.General, Logs.Slow); one
// writer goroutine, owned by Logs (Close waits for it), formats the
// entries, writes them through a buffer and flushes it whenever the
// queue runs empty. When the queue is full (a disk slower than the
// statements), the entry is dropped and counted (Dropped), so a slow disk
// never holds a statement, let alone a row lock. The state the formats
// carry from one entry to the next (the last second written, the last
// database of `use db;`) belongs to the writer, which sees the entries in
// file order.
//
// Statements that carry a password (CREATE USER / ALTER USER ...
// IDENTIFIED BY, SET PASSWORD, GRANT ... IDENTIFIED BY) are logged
// rewritten, as MySQL does: Redact replaces each secret by <secret>.
//
// Concurrency: every method of Logs is safe from any goroutine. Reopen
// (FLUSH LOGS) and SetFile return once the writer has acted on them.
package querylog
