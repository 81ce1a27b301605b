package access

import (
	"reflect"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sql/privilege"
)

// Scope is what a Need is checked on, and so how its denial is worded.
type Scope uint8

// The scopes of a need.
const (
	// OnTable needs Priv on table DB.Name (1142).
	OnTable Scope = iota
	// OnColumn needs Priv on table DB.Name because the statement reads
	// its column Column (1143); plrun grants no column privileges.
	OnColumn
	// OnDatabase needs Priv on database DB as a whole (1044).
	OnDatabase
	// AnyInDatabase needs any privilege in DB or on a table of it: USE,
	// SHOW TABLES (1044).
	AnyInDatabase
	// AnyOnTable needs any privilege on table DB.Name: SHOW COLUMNS,
	// SHOW CREATE TABLE (1142 naming Verb).
	AnyOnTable
	// Global needs every privilege of Priv globally (1227).
	Global
	// AnyGlobal needs one of Priv globally: SHOW ENGINE (1227 naming them).
	AnyGlobal
	// OnServer needs Priv globally and is denied as a failed login is
	// worded (1045): GRANT ON *.*, LOAD DATA INFILE's FILE, as MariaDB.
	OnServer
	// OnRoutine needs Priv on routine DB.Name (1370 naming Verb).
	OnRoutine
	// SeeRoutine needs any routine privilege in DB, else the routine is
	// reported missing (1305 "Verb Name does not exist"), as MariaDB's
	// SHOW CREATE PROCEDURE does.
	SeeRoutine
	// OnTriggerTable needs Priv on the table trigger DB.Name is on
	// (1142); the checker's Env finds the table.
	OnTriggerTable
	// Unknown is a statement kind this package does not classify: only
	// an account holding every privilege globally (ALL ON *.*) passes it
	// (1227 naming ALL PRIVILEGES otherwise).
	Unknown
)

// Need is one check a statement makes before it runs.
type Need struct {
	Priv  privilege.Priv
	Scope Scope
	// DB is the database; "" is the session's current one.
	DB string
	// Name is the table, routine or trigger.
	Name   string
	Column string // OnColumn
	// Function: the OnRoutine or SeeRoutine routine is a stored function
	// (GRANT ... ON FUNCTION), not a procedure.
	Function bool
	// Verb is the word the denial names when it is not Priv's names:
	// "SHOW" (SHOW CREATE TABLE), "execute", "PROCEDURE".
	Verb string
}

// Needs is what p needs, computed once per parse.
func Needs(p *parse.Stmt) []Need {
	p.AccessOnce.Do(func() { p.Access = needsOf(p) })
	needs, _ := p.Access.([]Need)
	return needs
}

// onRefs adds a need on every table of refs: written uses need write, read
// ones read; the written ones first, as MariaDB checks an INSERT's or a
// single-table UPDATE's target before what it reads.
func onRefs(out []Need, refs []parse.TableRef, write, read privilege.Priv) []Need {
	out = onUses(out, refs, true, write)
	return onUses(out, refs, false, read)
}

// readsFirst is onRefs checking the tables read first, as MariaDB checks
// a multi-table UPDATE or DELETE.
func readsFirst(out []Need, refs []parse.TableRef, write, read privilege.Priv) []Need {
	out = onUses(out, refs, false, read)
	return onUses(out, refs, true, write)
}

func onUses(out []Need, refs []parse.TableRef, written bool, p privilege.Priv) []Need {
	if p == 0 {
		return out
	}
	for _, r := range refs {
		if r.Write == written {
			out = append(out, Need{Priv: p, Scope: OnTable, DB: r.Schema, Name: r.Name})
		}
	}
	return out
}

// KindOf names p's statement kind for the error log ("select",
// "create_proc"): never its text.
func KindOf(p *parse.Stmt) string {
	if p.Kind != parse.KindAST || p.Node == nil {
		return kindName(p)
	}
	t := reflect.TypeOf(p.Node).Elem().Name()
	return strings.ToLower(strings.TrimSuffix(t, "Stmt"))
}

func kindName(p *parse.Stmt) string {
	switch p.Kind {
	case parse.KindCreateProc:
		return "create_procedure"
	case parse.KindDropProc:
		return "drop_procedure"
	case parse.KindCreateFunc:
		return "create_function"
	case parse.KindDropFunc:
		return "drop_function"
	case parse.KindCreateTrigger:
		return "create_trigger"
	case parse.KindDropTrigger:
		return "drop_trigger"
	case parse.KindAlterSystem:
		return "alter_system"
	case parse.KindSetPersist:
		return "set_persist"
	case parse.KindResetPersist:
		return "reset_persist"
	case parse.KindCheckpoint:
		return "checkpoint"
	case parse.KindLoadProc:
		return "load_procedure"
	case parse.KindLockTables:
		return "lock_tables"
	case parse.KindDoBlock:
		return "do_language"
	}
	return "show"
}

// ReadNeeds is SELECT on every table the nodes read: a stored function's
// RETURN expression, which runs inside the calling statement's plan and
// so is checked at each call (with its definer's rights).
func ReadNeeds(nodes ...ast.Node) []Need {
	return onRefs(nil, parse.ReadRefsOf(nodes...), 0, privilege.Select)
}
