// Package ddl runs the schema statements plrun has — CREATE/DROP
// DATABASE, CREATE TABLE (column types, defaults, keys, AUTO_INCREMENT,
// ENGINE under NO_ENGINE_SUBSTITUTION), DROP TABLE, TRUNCATE TABLE,
// CREATE [OR REPLACE] VIEW and DROP VIEW (view.go) — and
// applies DDL records to the catalogs (Apply).
//
// Invariant: every DDL statement is one log record (txn.Manager.LogDDL),
// and the statement changes the catalogs with the same Apply that replay
// uses, so a recovered database cannot differ from the one that wrote the
// log. Plans built before a DDL are invalidated after it
// (exec.State.SchemaChanged).
package ddl
