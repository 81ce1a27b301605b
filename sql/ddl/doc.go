// Package ddl runs the schema statements that create and drop things —
// CREATE/DROP DATABASE, CREATE TABLE [... LIKE | ... SELECT]
// (createselect.go), DROP TABLE, TRUNCATE TABLE (both refused for a parent
// other tables reference, unless foreign_key_checks=0: fkdrop.go),
// CREATE [OR REPLACE] / ALTER VIEW and DROP VIEW (view.go) — and applies
// DDL records to the catalogs (Apply, replay.go). Changes of an existing
// table (ALTER TABLE, CREATE/DROP INDEX, RENAME TABLE) are package alter's,
// reached through Exec; the rules of a table definition are package
// tabledef's, shared by both.
//
// CREATE TEMPORARY TABLE and the DROP/TRUNCATE of a temporary table are
// the exception to the one-record rule: they write no record at all and
// change the session's own tables (exec.State's), never the catalog.
//
// Invariant: every DDL statement is one log record (txn.Manager.LogDDL),
// and the statement changes the catalogs with the same Apply that replay
// uses, so a recovered database cannot differ from the one that wrote the
// log. Plans built before a DDL are invalidated after it
// (exec.State.SchemaChanged).
package ddl
