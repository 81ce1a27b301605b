// Package ddl runs the schema statements plrun has — CREATE/DROP
// DATABASE, CREATE TABLE (column types, defaults, keys, AUTO_INCREMENT,
// ENGINE under NO_ENGINE_SUBSTITUTION, FOREIGN KEYs validated against
// their parents as InnoDB does, CHECK constraints), DROP TABLE, TRUNCATE
// TABLE (both refused for a parent other tables reference, unless
// foreign_key_checks=0), CREATE [OR REPLACE] / ALTER VIEW and DROP VIEW
// (view.go), ALTER TABLE, CREATE/DROP INDEX, RENAME TABLE — and applies DDL
// records to the catalogs (Apply).
//
// CREATE TEMPORARY TABLE and the DROP/TRUNCATE of a temporary table are
// the exception to the one-record rule: they write no record at all and
// change the session's own tables (exec.State's), never the catalog.
//
// ALTER TABLE: alterplan.go and alterkeys.go turn the specs into the new
// definition and a storage.Reshape of the rows, with MariaDB's errors;
// alter.go runs the online rebuild (storage.Rebuild from a snapshot,
// the table's write gate closed only for the catch-up and the switch) and
// reports what MariaDB reports (Records: when MariaDB would copy the rows).
// CREATE/DROP INDEX (index.go) are ALTERs; RENAME TABLE (rename.go) moves
// tables without copying them.
//
// Invariant: every DDL statement is one log record (txn.Manager.LogDDL),
// and the statement changes the catalogs with the same Apply that replay
// uses, so a recovered database cannot differ from the one that wrote the
// log. Plans built before a DDL are invalidated after it
// (exec.State.SchemaChanged).
package ddl
