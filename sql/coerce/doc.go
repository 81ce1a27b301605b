// Package coerce is how a value is stored into a column (or assigned to
// a stored function's parameter or result) as MySQL does it: in strict
// mode a value that does not fit is an error naming the column and row
// (1406, 1265, 1366, 1292, 1264); without it, or under IGNORE, it is
// clamped or truncated with the same codes as warnings; NULL into a NOT
// NULL column of an UPDATE or multi-row INSERT is the type's implicit
// default with warning 1048; a JSON column's text must be JSON (4025) in
// every mode.
//
// It reads the statement's mode from the session's expr.Env (sql_mode,
// IGNORE, whether the write is multi-row) and adds warnings there; the
// writers of sql/dml call it for every column of every row they write.
package coerce
