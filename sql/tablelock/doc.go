// Package tablelock is what LOCK TABLES, UNLOCK TABLES and FLUSH TABLES
// [t, ...] WITH READ LOCK hold, and what every statement checks against
// them: the metadata locks of plrun's sessions.
//
// One Locks is shared by the sessions of a database; each session has a
// Holder (its LOCK TABLES locks, its global read lock, the tables its
// running statement uses and the tables its open transaction has used).
//
//   - a table locked READ by some sessions: others may read it; their
//     statements that write it wait;
//   - a table locked WRITE by one session: others' statements that use it
//     wait;
//   - the global read lock (FTWRL), held by any number of sessions:
//     others' statements that write (DML, DDL, a COMMIT with changes) wait.
//
// A statement publishes what it is about to use (Holder.running) before
// it looks at the locks; a session taking a lock installs it first and
// then waits until no other session's running statement conflicts. With
// both sides' steps sequentially consistent, either the statement sees
// the lock or the locker sees the statement.
//
// As MySQL's metadata locks, a table an open transaction has read or
// written stays held until COMMIT or ROLLBACK (txnuse.go): LOCK TABLES t
// WRITE waits for every other session's open transaction that used t,
// LOCK TABLES t READ (and FLUSH TABLES t WITH READ LOCK) for those that
// wrote it; FLUSH TABLES WITH READ LOCK waits only for running writes, as
// in MariaDB. A statement ends by publishing its tables among its
// transaction's before it withdraws its running use, so a locker that
// reads running, then the transaction's uses, sees one or the other.
// While a locker waits for those, its locks are installed but pending: a
// statement of a transaction that already holds the table goes on (as
// MySQL grants a lock a transaction already has), others wait.
//
// Waits are bounded by lock_wait_timeout (1205) and end at KILL.
//
// Lock order: Locks.mu is taken with no other lock held, and nothing else
// is taken or waited for under it (views are resolved outside it; Host is
// never called under it).
package tablelock
