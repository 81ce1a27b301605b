package access

import (
	"strings"

	"github.com/plrun/plrun/sql/privilege"
)

// Env is the session a check is made for.
type Env interface {
	// CurrentDB is the session's database ("" for none).
	CurrentDB() string
	// IsTemporary reports a temporary table of the session's own: it
	// needs no privilege once created, as in MySQL.
	IsTemporary(db, table string) bool
	// TriggerTable is the table trigger db.name is on; false if there is
	// no such trigger (the statement then fails as it would unchecked).
	TriggerTable(db, name string) (string, bool)
}

// Denial is a refused need: the need, its database as resolved, and the
// privileges of it the account lacks.
type Denial struct {
	Need    Need
	DB      string
	Missing privilege.Priv
}

// Check asks g for every need in order and returns the first one refused.
// Needs on the session's database are skipped when it has none (the
// statement then fails with 1046, as MariaDB's does first).
func Check(g privilege.Grants, needs []Need, env Env) (Denial, bool) {
	for _, n := range needs {
		if d, denied := check(g, n, env); denied {
			return d, true
		}
	}
	return Denial{}, false
}

func check(g privilege.Grants, n Need, env Env) (Denial, bool) {
	db := n.DB
	if db == "" && n.Scope != Global && n.Scope != AnyGlobal && n.Scope != OnServer && n.Scope != Unknown {
		if db = env.CurrentDB(); db == "" {
			return Denial{}, false
		}
	}
	if isSystemSchema(db) {
		// information_schema is readable by all (its rows are filtered)
		// and never writable (1044, refused by its own code)
		return Denial{}, false
	}
	if user, host, self := selfOf(n.Name); self && strings.EqualFold(user, g.User()) && strings.EqualFold(host, g.Host()) {
		return Denial{}, false
	}
	missing := func(p privilege.Priv, db, table string) privilege.Priv {
		if g.Allowed(p, db, table) {
			return 0
		}
		var lack privilege.Priv
		for bit := privilege.Priv(1); bit != 0 && bit <= p; bit <<= 1 {
			if p&bit != 0 && !g.Allowed(bit, db, table) {
				lack |= bit
			}
		}
		return lack
	}
	var lack privilege.Priv
	switch n.Scope {
	case OnTable, OnColumn:
		if env.IsTemporary(db, n.Name) {
			return Denial{}, false
		}
		lack = missing(n.Priv, db, n.Name)
	case OnTriggerTable:
		table, ok := env.TriggerTable(db, n.Name)
		if !ok {
			return Denial{}, false
		}
		n.Scope, n.Name = OnTable, table
		lack = missing(n.Priv, db, table)
	case OnDatabase:
		lack = missing(n.Priv, db, "")
	case AnyInDatabase:
		if !g.Visible(db) {
			lack = privilege.All
		}
	case AnyOnTable:
		if !env.IsTemporary(db, n.Name) && !AnyOnTableAllowed(g, db, n.Name) {
			lack = privilege.All
		}
	case Global, OnServer:
		lack = missing(n.Priv, "", "")
	case AnyGlobal:
		if !anyOf(g, n.Priv, "", "") {
			lack = n.Priv
		}
	case OnRoutine:
		if !RoutineAllowed(g, n.Priv, db, n.Name, n.Function) {
			lack = n.Priv
		}
	case SeeRoutine:
		routine := privilege.Execute | privilege.CreateRoutine | privilege.AlterRoutine
		if !RoutineAllowed(g, privilege.Execute, db, n.Name, n.Function) && !RoutineAllowed(g, privilege.AlterRoutine, db, n.Name, n.Function) &&
			!g.Allowed(privilege.CreateRoutine, db, "") {
			lack = routine
		}
	default: // Unknown
		lack = missing(privilege.All, "", "")
	}
	if lack == 0 {
		return Denial{}, false
	}
	return Denial{Need: n, DB: db, Missing: lack}, true
}

// RoutineGrants is a Grants that also holds routine-level grants (GRANT
// EXECUTE ON PROCEDURE db.p); without it a routine's privileges are its
// database's.
type RoutineGrants interface {
	AllowedRoutine(need privilege.Priv, db, name string, function bool) bool
}

// RoutineAllowed reports whether g holds need on routine db.name.
func RoutineAllowed(g privilege.Grants, need privilege.Priv, db, name string, function bool) bool {
	if rg, ok := g.(RoutineGrants); ok {
		return rg.AllowedRoutine(need, db, name, function)
	}
	return g.Allowed(need, db, "")
}

// anyOf reports whether g holds one of the privileges of p on db.table.
func anyOf(g privilege.Grants, p privilege.Priv, db, table string) bool {
	for bit := privilege.Priv(1); bit != 0 && bit <= p; bit <<= 1 {
		if p&bit != 0 && g.Allowed(bit, db, table) {
			return true
		}
	}
	return false
}

// AnyOnTableAllowed reports whether g holds any privilege on db.table
// (globally, on db or on the table): what SHOW TABLES, SHOW COLUMNS and
// information_schema need to show it.
func AnyOnTableAllowed(g privilege.Grants, db, table string) bool {
	return anyOf(g, privilege.All, db, table)
}

func isSystemSchema(db string) bool {
	return strings.EqualFold(db, "information_schema") || strings.EqualFold(db, "performance_schema")
}
