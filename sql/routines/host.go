package routines

import (
	"context"
	"strings"

	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/txn"
)

// Host is the session as routine DDL sees it.
type Host interface {
	// Statement is the session's statement state (its database,
	// information_schema, temporary tables).
	Statement() *exec.State
	// SysVar is a system variable's value in the session.
	SysVar(name string) string
	// CommitOpen commits the open transaction (DDL's implicit commit) and
	// returns the LSN the reply must wait for.
	CommitOpen(ctx context.Context) (uint64, error)
	// CheckWritable refuses a change in a read-only session (1792).
	CheckWritable() error
	// CheckFunction compiles a stored function's body as its first call
	// will, so that one that cannot run is refused at CREATE.
	CheckFunction(db string, d *procs.Definition) error
	// Definer is the account a routine or trigger created now runs as
	// when no DEFINER is written: the session's ("`u`@`h`"), or "" for
	// an unchecked session (the operator's rights; see sql/privcheck.go).
	Definer() string
}

// Catalogs are the database's: the transaction manager (catalog, DDL
// log), the procedure catalog and the languages it compiles in.
type Catalogs struct {
	Txns     *txn.Manager
	Procs    *procs.Catalog
	Runtimes []procs.Runtime
	// SchemaChanged invalidates plans that named a function or fired a
	// trigger.
	SchemaChanged func()
}

// DDL is one statement's view of routine DDL.
type DDL struct {
	h Host
	c Catalogs
}

// New is routine DDL for a statement of h.
func New(h Host, c Catalogs) DDL { return DDL{h: h, c: c} }

// SplitName takes "db.name" (either part may be `quoted`) apart; a bare
// name is in defDB.
func SplitName(s, defDB string) (db, name string) {
	parts := strings.SplitN(s, ".", 2)
	unq := func(x string) string { return strings.Trim(x, "`") }
	if len(parts) == 2 && !strings.HasPrefix(s, "`") || (len(parts) == 2 && strings.HasPrefix(s, "`") && strings.HasSuffix(parts[0], "`")) {
		return unq(parts[0]), unq(parts[1])
	}
	return defDB, unq(s)
}

// routineDB is the database a routine statement names, as the catalog
// spells it.
func (r DDL) routineDB(db string) (string, error) {
	if db == "" {
		return "", sqlerr.New(sqlerr.ErNoDB, "No database selected")
	}
	if r.h.Statement().IsVirtual(db) {
		return r.h.Statement().VirtualName(db), nil // it has no routines: DROP says so (1305)
	}
	cat := r.c.Txns.Catalog()
	if !cat.HasDatabase(db) {
		return "", sqlerr.New(sqlerr.ErBadDB, "Unknown database '%s'", db)
	}
	return cat.DatabaseName(db), nil
}

// createDB is routineDB for CREATE PROCEDURE/FUNCTION: information_schema
// takes none (1044), as in MariaDB.
func (r DDL) createDB(db string) (string, error) {
	if r.h.Statement().IsVirtual(db) {
		return "", r.h.Statement().AccessDenied(db)
	}
	return r.routineDB(db)
}
