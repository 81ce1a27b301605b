package privilege

import "strings"

// Priv is a set of privileges, as GRANT names them.
type Priv uint32

// The privileges plrun grants and checks.
const (
	Select Priv = 1 << iota
	Insert
	Update
	Delete
	Create
	Drop
	Alter
	Execute
	// Index is CREATE INDEX / DROP INDEX (MySQL's INDEX privilege).
	Index
	// CreateUser is CREATE USER, DROP USER, RENAME USER and ALTER USER
	// of another account.
	CreateUser
	// GrantOption is WITH GRANT OPTION: the holder may grant what it holds.
	GrantOption
	// Super covers what MySQL gives SUPER: SET GLOBAL, KILL of another
	// user's session, SHOW ENGINE.
	Super
	// Process is SHOW PROCESSLIST of other accounts' sessions.
	Process
	// File is LOAD DATA INFILE and SELECT ... INTO OUTFILE on the server.
	File
	// LockTables is LOCK TABLES (with SELECT on the tables).
	LockTables
	// CreateRoutine and AlterRoutine are CREATE/DROP of procedures and functions.
	CreateRoutine
	AlterRoutine
	// Trigger is CREATE/DROP TRIGGER.
	Trigger
	// CreateView and ShowView are CREATE VIEW and SHOW CREATE VIEW.
	CreateView
	ShowView
	// Reload is FLUSH.
	Reload
	// Shutdown is SHUTDOWN.
	Shutdown
	// CreateTmpTable is CREATE TEMPORARY TABLE.
	CreateTmpTable
	// References is FOREIGN KEY ... REFERENCES on the parent table.
	References

	numPrivs = iota
)

// All is GRANT ALL [PRIVILEGES]: every privilege but GRANT OPTION.
const All = Priv(1<<numPrivs-1) &^ GrantOption

// names are the privileges as GRANT and SHOW GRANTS spell them, in
// SHOW GRANTS's order.
var names = [numPrivs]string{
	"SELECT", "INSERT", "UPDATE", "DELETE", "CREATE", "DROP", "ALTER", "EXECUTE", "INDEX",
	"CREATE USER", "GRANT OPTION", "SUPER", "PROCESS", "FILE", "LOCK TABLES",
	"CREATE ROUTINE", "ALTER ROUTINE", "TRIGGER", "CREATE VIEW", "SHOW VIEW",
	"RELOAD", "SHUTDOWN", "CREATE TEMPORARY TABLES", "REFERENCES",
}

// Names are the privileges in p, in SHOW GRANTS's order.
func (p Priv) Names() []string {
	var out []string
	for i, n := range names {
		if p&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	return out
}

// String is p as GRANT would list it ("SELECT, INSERT").
func (p Priv) String() string { return strings.Join(p.Names(), ", ") }

// Parse is the privilege GRANT names name (any case, single spaces);
// "ALL" and "ALL PRIVILEGES" are All.
func Parse(name string) (Priv, bool) {
	n := strings.ToUpper(strings.Join(strings.Fields(name), " "))
	if n == "ALL" || n == "ALL PRIVILEGES" {
		return All, true
	}
	for i, s := range names {
		if s == n {
			return 1 << i, true
		}
	}
	return 0, false
}

// Grants is what one account may do, answered from the account catalog's
// current state (a GRANT or REVOKE shows at the next call).
type Grants interface {
	// Allowed reports whether the account holds every privilege of need
	// on table in db, counting global, database and table grants.
	// table "" asks about the database as a whole (CREATE TABLE, CREATE
	// PROCEDURE); db "" asks about global privileges only.
	Allowed(need Priv, db, table string) bool
	// Visible reports whether the account holds any privilege on db or on
	// a table in it (USE db, SHOW DATABASES, information_schema rows).
	Visible(db string) bool
	// User and Host are the account as CURRENT_USER() shows it
	// ('user'@'host').
	User() string
	Host() string
}
