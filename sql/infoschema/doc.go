// Package infoschema is information_schema: MariaDB's read-only tables
// about the databases, tables, columns, indexes, routines, sessions,
// settings and status of the server, plus plrun's own PLRUN_LOCKS,
// PLRUN_LOCK_WAITS and PLRUN_TRX (InnoDB's INNODB_LOCKS, INNODB_LOCK_WAITS
// and INNODB_TRX for plrun's lock manager and transactions).
//
// Each table is built when a statement names it (Schema.Table): its rows
// are read from the catalog and the engine through Source, and put in a
// transient *storage.Table (never in the catalog) at LSN 0, so that every
// SELECT feature (joins, WHERE, GROUP BY, ORDER BY, subqueries) works on
// it unchanged. The executor never caches a plan that built one
// (exec.State.PlanFor), so no execution sees another's rows. Columns,
// column types and values are those of MariaDB 10.11.
//
// The package reads the catalog and the engine only; it takes no lock but
// theirs, each briefly (a Source implementation copies what it returns).
// SHOW statements that print the same facts (SHOW TABLE STATUS, SHOW
// COLUMNS' Key and Default) call its row builders and helpers, so both
// always agree.
package infoschema
