// Package txn runs transactions over storage: row locks from lockmgr,
// pending writes with an undo log (statement and savepoint rollback), and
// the commit protocol of DESIGN.md over the asynccommit pipeline.
//
// A commit, step by step:
//
//	Txn.Commit
//	  ├─ encode redo (one record: every row the txn changed, final values)
//	  ├─ latch.RLock ── pipeline.Append → LSN (registered in visibility)
//	  │     ── install versions at LSN ── mark installed ── RUnlock
//	  ├─ ELR / async:  lockmgr.ReleaseEarly(LSN)   (next writer commits at a higher LSN)
//	  │  otherwise:    pipeline.WaitDurable(LSN), then lockmgr.ReleaseAll
//	  │                (while it waits, the state sink, if set, reads
//	  │                StateLogSync: the session's PROCESSLIST State)
//	  └─ return the ack LSN = max(commit LSN, every LSN the txn read)
//
// Rows of temporary tables (TableDef.Temporary: a session's own, never
// durable) are left out of the redo; a transaction that changed only
// such rows appends nothing and installs them at LSN 0, which every
// snapshot sees (only their session reads them), and releases its locks.
//
// Reads: a statement takes a snapshot (BeginStatement): the visible LSN,
// below which every commit is fully installed (visibility.go). Plain reads
// see the newest version at or below it, so one statement never sees part
// of another transaction, across keys and tables; writers read the newest
// committed version under their row lock. A session's snapshots always
// include its own earlier commits. Under REPEATABLE READ (isolation.go) a
// consistent read (a plain SELECT) uses the transaction's read view
// instead, taken once at its first consistent read and released at commit
// or rollback; it is registered like a statement's snapshot, so the
// versions it reads are not trimmed while it is open. Writes and locking
// reads take a fresh snapshot in every level, as InnoDB reads the newest
// committed row for them.
//
// The caller acknowledges its client only once the pipeline's durable LSN
// reaches the ack LSN (invariant 3). Readers never block on row locks; a
// reader that sees a committed version not yet durable records its LSN in
// Txn.ReadLSN, and the caller holds the reply until it is durable
// (invariant 4).
//
// DDL: every DDL statement is exactly one KindDDL record (DDLRecord),
// appended and applied under the exclusive latch, in one catalog step, and
// replayed whole. A statement that changes several things names them all in
// its one record: TRUNCATE is truncate_table (the old table and the new
// empty one swap under the catalog's lock, so a reader sees one or the
// other, never no table), DROP TABLE a, b, c is drop_tables. So a crash at
// any moment leaves the schema wholly before or wholly after each DDL
// statement. A DDL added later must keep this rule: never two records for
// one statement.
//
// Schema changes (ALTER TABLE, CREATE/DROP INDEX, RENAME TABLE) are
// alter_table and rename_tables records. Around them, each table has a
// write gate (gate.go), the part of MySQL's metadata lock plrun needs: a
// transaction enters it at its first row lock on the table and leaves at
// commit (after installing) or rollback; a schema change closes it, waits
// until the transactions inside have left (bounded by the lock wait
// timeout: 1205), switches the table, and opens it. A writer that waited
// finds its table replaced (ErrTableChanged) and its statement is run again
// by the SQL layer. Readers never use the gate. A table rebuilt with new
// row keys cannot be read at a snapshot older than its record
// (ErrSnapshotTooOld); DDL LSNs are registered in visibility like commits,
// so every later snapshot is past them.
//
// Apply, flush, truncate (applier.go; the table store is storage/kv).
// Each commit record, when it gets its LSN (under visibility's mutex, so
// in LSN order), and each DDL record's effect (under the exclusive
// latch) is queued for the applier, one goroutine that writes them into
// the store once they are durable, in LSN order, in batches; a batch
// holds whole records and the store's applied LSN, the LSN of its last
// record. So the store's state on disk is always the state after some
// prefix of the log, and says which one. Rows are evicted from memory
// only once applied (storage/backing.go). A checkpoint waits until every
// record up to the last LSN is applied, flushes the store (pebble writes
// its memtables) and only then truncates the log before the applied LSN
// that flush made durable:
//
//	the log is never dropped past an LSN the store has not made durable.
//
// Recovery opens the store, reads its applied LSN and replays the log
// after it (records replayed are queued for the applier again). A record
// that never became durable is never applied (the applier stops if the
// log fails), so the store never holds a commit the log may lose. A
// DDL effect carries the catalog header after the record (kept in the
// store with the batch), the key spaces it dropped, and the tables
// created or rebuilt in memory whose rows the applier writes, read at a
// snapshot at the record's LSN that the effect holds until then.
//
// Concurrency: a Txn belongs to one goroutine; only its Live (ID, start
// time, rows changed, ended: atomics, for information_schema.PLRUN_TRX)
// may be read from others. Manager is safe for concurrent use. The commit
// latch (Manager.latch) is taken shared by every
// commit for the Append+install step only, and exclusively by DDL, so a
// DDL record's effect (the catalog header) is consistent at its LSN.
// Lock order: write gate (entered before the first row lock; a schema
// change closes gates in table-id order) → lockmgr (row locks, waited for
// without other locks held) → latch → storage.Table.mu. A writer inside
// one gate may wait for a row lock held by a writer waiting at another
// gate a schema change is closing: the schema change's timeout (or the
// row lock's) ends that wait.
package txn
