// Package alter runs the schema changes of an existing table: ALTER
// TABLE, CREATE/DROP INDEX (which are ALTERs) and RENAME TABLE.
//
//	specs ──alterPlan.apply──> new TableDef + storage.Reshape   (alterplan.go,
//	                            with MariaDB's errors            alterkeys.go,
//	                                                             altercons.go)
//	      ──rebuildOnline──> storage.Rebuild from a snapshot     (alter.go)
//	                         (the table's writers go on)
//	      ──write gate closed, catch-up, checks──> one alter_table record
//
// Invariants:
//   - Every change of a shared table is one log record (txn.Manager.LogDDL):
//     alter_table carries the whole new definition and the reshape, so
//     replay (ddl.Apply, txn.ApplyDDL) makes the same table from the same
//     rows; rename_tables renames every table of one RENAME TABLE or none.
//     Nothing is written to the catalog but inside that record's apply.
//   - Readers never wait: they read the old table's snapshot until the
//     switch, the new table after it. Writers of the table (and, for a
//     foreign key added or carried, of its parents and children: gateIDs)
//     wait only at the write gate (txn.Manager.LockTables), which closes
//     after the copy, for the catch-up and the switch; the gate waits for
//     the transactions that wrote the table, bounded by
//     innodb_lock_wait_timeout. Before the catch-up every commit to the old
//     table is durable, so the new one never holds what a crash could undo.
//     A writer that waited re-plans against the new table
//     (exec.State.SchemaChanged runs before the gate opens).
//   - A change that leaves every row as it is (a rename, a default,
//     AUTO_INCREMENT=) is redefine: the same rows under the new definition,
//     still one record, still behind the gate.
//   - Two ALTERs of one table: the second finds the table dropped under it
//     (txn.ErrTableChanged) and runs again against the first's result, as
//     it would wait for the metadata lock in MySQL (Exec).
//   - A table's triggers follow it (TriggersFollow), in the same apply as
//     its record, and replay calls the same function.
//
// A temporary table is the exception (temporary.go): it is the session's
// own, so its changes are made there, with no record and no gate, and are
// gone with the session.
//
// What a definition may say (column types, defaults, keys, CHECK and
// FOREIGN KEY rules) is package tabledef's, shared with CREATE TABLE.
package alter
