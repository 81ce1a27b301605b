// Package dataio moves table data between files and tables: LOAD DATA
// [LOCAL] INFILE (load.go: the statement; loadrows.go: its rows, inserted
// in batches as a multi-row INSERT; fields.go: MySQL's line and field
// splitting) and SELECT ... INTO OUTFILE / INTO DUMPFILE (outfile.go),
// both bounded by secure_file_priv (files.go).
//
// It stands on Host, the session as a statement moving data sees it (its
// statement state, settings, statement cache and transaction); it never
// holds a lock of its own, and every row it writes goes through the
// session's INSERT (sql/exec), so conversions, constraints, triggers and
// row locks are INSERT's.
//
// Invariants: a LOAD DATA is one statement (an error undoes every row,
// the session's statement rollback); its warnings are in line order and
// name the file's line ("at row N"), as MariaDB's; nothing is written to
// a file that already exists (1086).
package dataio
