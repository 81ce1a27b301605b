// Package slt reads and runs sqllogictest files (SQLite's conformance
// corpus, in the form regenerated for MySQL) against any engine behind the
// small DB interface: plrun's embedded API in the root package's test, or
// a MariaDB server through database/sql to learn what the corpus expects.
//
// A file is a sequence of records separated by blank lines: `statement ok`,
// `statement error`, `query TYPES [sort] [label]` with its SQL, `----` and
// the expected values (one per line, or "N values hashing to MD5"), and the
// controls `skipif ENGINE`, `onlyif ENGINE`, `halt` and `hash-threshold`.
// Records are named by their first line number in the file, which is what
// a known-failures list holds.
package slt
