// Package storage holds plrun's tables in memory: the catalog of databases
// and tables, each table's rows indexed by primary key (a hash map for point
// operations and a B-tree for ordered scans), and its UNIQUE indexes.
//
// A Row has at most two states:
//
//	committed  the newest committed version and the LSN of the commit that
//	           wrote it (nil values = absent or deleted: a tombstone, kept so
//	           a reader can still see that the deletion is not yet durable)
//	pending    an active transaction's uncommitted write (owner TxnID)
//
// Readers other than the owner see only the committed state; the txn
// package decides whether they must wait for its LSN to be durable.
//
// Concurrency: each Table has one mutex (mu) guarding its maps, its B-tree
// and every Row's fields. It is held only for the short in-memory step of a
// read or write; row locks (lockmgr) serialize writers above it. Lock
// order: Catalog.mu before Table.mu; no Table method calls out while
// holding mu.
//
// Snapshots: Catalog.WriteSnapshot/ReadSnapshot write and read every
// table's committed rows; the caller (txn) makes the state consistent at an
// LSN by holding the commit latch while it captures it.
package storage
