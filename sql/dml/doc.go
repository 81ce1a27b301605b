// Package dml plans and runs the statements that write rows: INSERT
// (insert.go plans the VALUES rows or the SELECT source; insertrun.go
// runs them row by row; autoinc.go fills defaults and AUTO_INCREMENT;
// replace.go is REPLACE, ondup.go ON DUPLICATE KEY UPDATE), UPDATE and
// DELETE (with ORDER BY and LIMIT, sql_safe_updates), through an
// updatable view too (sql/view). Every written row is converted as MySQL
// stores values (sql/coerce), checked against the table's CHECKs and
// FOREIGN KEYs (constraint.Rules; a statement's constraint.Writer is
// kept across its rows and its triggers' bodies), its UNIQUE keys
// checked (write.go), and fires the table's triggers (triggers.go,
// through TriggerHost; a body writing the firing table is 1442).
//
// A Session is made once per session by sql/exec's State (its Host:
// names, views, subqueries, an INSERT ... SELECT's query), with the
// session's expr.Env and the Writes it keeps between statements; the
// State caches the plans PlanInsert, BuildUpdate and PlanDelete make. Every statement runs in a txn.Txn its caller began and
// ends; nothing here commits.
package dml
