// Package acl is the account catalog: accounts ('user'@'host'), their
// authentication (plugin and stored secret, never a password) and their
// grants at global (*.*), database (db.*), table (db.t) and routine
// (PROCEDURE/FUNCTION db.p) level, with GRANT OPTION; the account
// statements (CREATE/DROP/ALTER/RENAME USER, SET PASSWORD, GRANT, REVOKE,
// SHOW GRANTS, SHOW CREATE USER) as MariaDB 10.11 answers them; and the
// privilege.Grants the server gives a logged-in session (Grants).
//
// Storage: a catalog record type, not tables of a mysql database. Every
// account statement is exactly one txn DDL record (Op "accounts") that
// carries the whole catalog after the statement (State.Encode), appended
// through txn.Manager.LogDDL like any schema change: it has an LSN in the
// one log, is durable before the client's OK (invariant 3), is replayed
// in LSN order at recovery (Catalog.Replay), and the checkpoint keeps the
// catalog in its snapshot beside the procedures (engine/recover.go). Why
// a record and not rows: a privilege check must never wait on a row lock
// or see an uncommitted grant, an account change is schema-like (it
// commits the open transaction, as MySQL's implicit commit), a whole-state
// record replays idempotently and a crash leaves the catalog wholly before
// or after each statement, and there is no mysql.user a client could
// INSERT into behind the catalog's back (so there is nothing to refuse or
// FLUSH PRIVILEGES). The cost is a record the size of the catalog per
// account statement: fine for the hundreds of accounts a server has.
//
// Secrets: mysql_native_password keeps "*"+HEX(SHA1(SHA1(pw))) and checks
// a login's scramble against it without the password; caching_sha2_password
// keeps MySQL's "$A$005$" salted sha256-crypt (5000 rounds), against which a
// cleartext password (full authentication) is checked. Its fast
// authentication's cache of SHA256(SHA256(pw)) is the server's, in memory
// only, filled by a full authentication.
//
// Concurrency: readers (every statement's privilege check, every login)
// load the current State through an atomic pointer and never lock; a
// State and its Accounts are immutable once published. Writers serialize
// on Catalog.mu: read the current State, build the next from a copy, log
// it, publish it inside LogDDL's apply (under the commit latch, so a
// checkpoint's snapshot of the catalog matches its LSN). Lock order:
// Catalog.mu → txn commit latch.
//
// Matching: a login as user from a client address matches the first
// account in MySQL's order (State.Match): hosts without wildcards first,
// then patterns by how late their first wildcard comes, '%' last; % and _
// as LIKE, 'a.b.c.d/m.m.m.m' netmasks, and a loopback client matches
// 'localhost'. The OceanBase login "user@tenant" falls back to "user".
package acl
