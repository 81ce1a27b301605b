// Package enginestatus writes the text of SHOW ENGINE PLRUN STATUS (and of
// SHOW ENGINE INNODB STATUS, which tools send): a report in sections, as
// InnoDB's monitor output is, of who waits for whom now, the latest
// deadlock, the commit pipeline, the last checkpoint, ELR and hot-row
// grouping.
//
// It only formats: the caller (package sql) gathers a Report from the
// lock manager, the session registry, the engine and its counters when
// the statement runs, and keeps the latest Deadlock as it happens. The
// same Deadlock and LockWait values give the error log's lines
// (DeadlockAttrs, TimeoutAttrs), so the log and the report say the same.
// Nothing here is on a statement's path; everything is safe to call from
// any goroutine.
package enginestatus
