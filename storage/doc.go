// Package storage holds plrun's tables: the catalog of databases and
// tables, each table's resident rows indexed by primary key (a hash map
// for point operations and a B-tree for ordered scans) and its secondary
// (UNIQUE and plain) indexes (per key, the rows one of whose versions
// holds it), over the table store (package kv, pebble) that holds every
// row and index entry as of its applied LSN.
//
// Where a row lives (backing.go). Memory holds the resident rows: every
// row with a pending write, a committed version the store has not applied
// yet, or older versions a snapshot may read, and clean rows while the
// budget (a quarter of plrun_cache_size) allows; the applier (txn/applier.go)
// evicts the others (Table.Evict: no pending write, commit LSN applied and
// at or below the snapshot horizon, no older version kept). So a row that
// is not resident has its newest committed version in the store, at an
// LSN no snapshot in use is below, and any reader may read it there. A
// resident row wins over the store for its key. Reads merge the two:
// Lookup falls back to the store; ScanEach walks the resident B-tree and
// a store iterator together, chunk by chunk (a long scan holds one chunk
// at a time, never the whole table); IndexCandidates and IndexEntries add
// the store's index entries of rows that are not resident. A row read from
// the store is transient: a statement may read it; a current read (under
// the row lock) or a write resolves it to the resident row for its key,
// making it resident (resolveLocked; SetPending returns the row written).
// An evicted Row turns transient too, so a holder that kept it reads its
// last state and a write resolves it again. A table created or rebuilt in
// memory is unfilled until the applier has written all its rows at its
// DDL's LSN: until then nothing of it is evicted or read from the store.
// Temporary and transient tables (NewTable) have no store and live in
// memory only, as every table did before.
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
// The catalog header (header.go) is the schema as one JSON document: each
// table's definition, its key space in the store (DataID) and its
// AUTO_INCREMENT counter as schema changes set it; the applier stores it
// with each DDL record and OpenCatalog rebuilds the catalog from it with
// no row resident. Snapshots (snapshot.go, ReadSnapshot) are the format
// before the store: read only to upgrade such a data folder.
//
// Lock order: Catalog.mu before Table.mu; a store read (Get, iterator)
// may run under Table.mu (so a key that is not resident keeps its stored
// state while it is read: eviction and fault-in take mu for writing).
// Slot, a scan's chunks (scanCursor.next) and the stored side of an index
// read (rlockStoredEntries) read the store without it instead, and check
// under it that no row left memory meanwhile (the unloaded counter): the
// store changes a key's state only while the key is resident, so what they
// read of the keys not resident then still holds; if one did leave, they
// read again (under the lock at last).
package storage
