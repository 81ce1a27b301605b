// Package storage holds plrun's tables in memory: the catalog of databases
// and tables, each table's rows indexed by primary key (a hash map for point
// operations and a B-tree for ordered scans), and its secondary (UNIQUE and
// plain) indexes: per key, the rows one of whose versions holds it.
//
// A Row holds:
//
//	committed  the newest committed version and the LSN of the commit that
//	           wrote it (nil values = absent or deleted: a tombstone, kept so
//	           a reader can still see that the deletion is not yet durable)
//	older      earlier committed versions, newest first, kept while a
//	           statement's snapshot may still need them (InstallAll trims
//	           the chain to the horizon the txn package passes)
//	pending    an active transaction's uncommitted write (owner TxnID)
//
// A reader other than the owner reads at a snapshot LSN: the newest
// committed version at or below it (Newest for writers' current reads
// under a row lock). The txn package chooses snapshots and decides whether
// a reader must wait for a version's LSN to be durable.
//
// Concurrency: each Table has one mutex (mu) guarding its maps, its B-tree
// and every Row's fields. It is held only for the short in-memory step of a
// read or write; row locks (lockmgr) serialize writers above it. Lock
// order: Catalog.mu before Table.mu; no Table method calls out while
// holding mu. A table's last-commit time (Updated, for
// information_schema.TABLES.UPDATE_TIME) is an atomic outside mu, set by
// InstallAll; TableDef.Created (CREATE_TIME) travels with the definition
// in DDL records and snapshots.
//
// Schema changes: Rebuild (rebuild.go) builds an ALTER TABLE's new table
// from the old one's committed rows in batches while the old one stays in
// use, then catches up with what changed; Reshape.Convert is the one
// conversion of old rows to new ones, used at run time and at replay.
// Catalog.SwapTable and RenameTables switch tables in one step under the
// catalog's lock. A Table value is a definition over rows (tableData):
// RENAME TABLE makes a new Table over the same rows and marks the old one
// dropped.
//
// A TableDef says where its TIMESTAMPs are kept (TimestampZone,
// timestamps.go: UTC, or SYSTEM for a table written before plrun kept
// instants); the sql layer converts on read and write, storage never does
// except in an ALTER's Reshape (reshape_zone.go).
//
// A TableDef also carries the table's FOREIGN KEYs and CHECKs
// (constraints.go; enforced by sql/constraint): definitions only, kept in
// DDL records and snapshots with the rest. Catalog.ReferencingFKs finds a
// parent's children by walking the catalog under its read lock. A
// TableDef marked Temporary is a session's own table, built with NewTable
// and never added to a Catalog.
//
// Views (views.go) are schema objects beside the tables: a ViewDef holds
// the stored SELECT text and its attributes; the SQL layer plans it.
// Catalog.View, Views and AllViews list them (information_schema.VIEWS
// reads them there). A transient table (a derived table's or CTE's rows
// for one execution) is a Table built with NewTable and never added to
// the catalog.
//
// Snapshots: Catalog.WriteSnapshot/ReadSnapshot write and read every
// table's committed rows; the caller (txn) makes the state consistent at an
// LSN by holding the commit latch while it captures it.
package storage
