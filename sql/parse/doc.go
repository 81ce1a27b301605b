// Package parse turns statement text into a Stmt: the TiDB parser's AST
// for the MySQL dialect, plus plrun's own pre-scan for what that parser
// does not know (CREATE PROCEDURE ... LANGUAGE LUA|JAVASCRIPT, DROP
// PROCEDURE, ALTER SYSTEM SET, SET PERSIST, RESET PERSIST, CHECKPOINT,
// LOAD PROCEDURE, DO LANGUAGE ... $$ $$, START TRANSACTION with several
// characteristics) and the PolarDB hot-row hints (COMMIT_ON_SUCCESS,
// ROLLBACK_ON_FAIL, TARGET_AFFECT_ROW). It also cuts scripts into
// statements (SplitStatements, SplitScript: quotes, comments, $$ bodies,
// DELIMITER) for the REPL and ExecMulti.
//
// Cache keeps parsed statements by text and the parse-relevant sql_mode
// flags; a Stmt is shared by every session and immutable once cached,
// except its plan slot (Cached), which the executor fills under PlanMu
// and which is valid for one schema epoch, database and sql_mode.
package parse
