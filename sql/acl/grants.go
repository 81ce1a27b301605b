package acl

import (
	"github.com/plrun/plrun/sql/privilege"
	"github.com/plrun/plrun/sqlerr"
)

// Note is a warning or note a statement raises (SHOW WARNINGS).
type Note = sqlerr.Note

// Grants is what one account may do (privilege.Grants), answered from
// the catalog's State at each call: a GRANT or REVOKE shows at the next
// statement of a connected session, a dropped account may do nothing.
type Grants struct {
	c          *Catalog
	user, host string
	key        string
}

// GrantsFor is the privilege.Grants of 'user'@'host' (the account a
// login matched, or a routine's DEFINER).
func (c *Catalog) GrantsFor(user, host string) *Grants {
	return &Grants{c: c, user: user, host: host, key: accountKey(user, host)}
}

var _ privilege.Grants = (*Grants)(nil)

func (g *Grants) account() *Account { return g.c.state.Load().byKey[g.key] }

// User and Host are the account as CURRENT_USER() shows it.
func (g *Grants) User() string { return g.user }
func (g *Grants) Host() string { return g.host }

// Allowed reports whether the account holds all of need on db.table,
// counting its global, database and table grants (table "": the
// database; db "": global only).
func (g *Grants) Allowed(need privilege.Priv, db, table string) bool {
	a := g.account()
	if a == nil {
		return false
	}
	have := a.Global
	if have&need == need {
		return true
	}
	if db == "" {
		return false
	}
	if d := a.DBs[dbKey(db)]; d != nil {
		have |= d.Priv
	}
	if table != "" {
		if t := a.Tables[tableKey(db, table)]; t != nil {
			have |= t.Priv
		}
	}
	return have&need == need
}

// AllowedRoutine is Allowed for a stored procedure (fn false) or
// function: global, database and routine grants (GRANT ... ON PROCEDURE).
func (g *Grants) AllowedRoutine(need privilege.Priv, db, name string, fn bool) bool {
	a := g.account()
	if a == nil {
		return false
	}
	have := a.Global
	if d := a.DBs[dbKey(db)]; d != nil {
		have |= d.Priv
	}
	if r := a.Routines[routineKey(db, name, fn)]; r != nil {
		have |= r.Priv
	}
	return have&need == need
}

// Visible reports whether the account holds any privilege on db or on
// something in it (GRANT OPTION alone does not count, as MySQL's USAGE).
func (g *Grants) Visible(db string) bool {
	a := g.account()
	if a == nil {
		return false
	}
	if a.Global&^privilege.GrantOption != 0 {
		return true
	}
	if d := a.DBs[dbKey(db)]; d != nil && d.Priv&^privilege.GrantOption != 0 {
		return true
	}
	k := dbKey(db)
	for _, m := range []map[string]*Grant{a.Tables, a.Routines} {
		for _, t := range m {
			if dbKey(t.DB) == k && t.Priv&^privilege.GrantOption != 0 {
				return true
			}
		}
	}
	return false
}
