// Package routines is the DDL of stored programs: CREATE / DROP
// PROCEDURE, FUNCTION and TRIGGER, LOAD PROCEDURE (a file or folder of
// Lua / JavaScript procedures), SHOW TRIGGERS and SHOW CREATE TRIGGER.
// Each definition is checked as MariaDB checks it (the database, the
// name, the body compiled: a body that does not compile is never
// logged), then logged as one DDL record (txn.Manager.LogDDL) and added
// to the procedure catalog (procs.Catalog) by the record's apply, so a
// restart replays it exactly. Like other DDL each commits the session's
// open transaction first.
//
// Running them is not here: CALL, DO blocks, stored function calls and
// trigger firing stand on the session (package sql). This package sees
// the session through Host and the database through Catalogs; it keeps
// no state and takes no lock of its own (the catalog's and the log's
// are theirs).
package routines
