package acl

import (
	"strings"

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
	if d := lookupGrant(a.DBs, "", db, ""); d != nil {
		if have |= d.Priv; have&need == need {
			return true
		}
	}
	if table != "" {
		if t := lookupGrant(a.Tables, "", db, table); t != nil {
			have |= t.Priv
		}
	}
	return have&need == need
}

// lookupGrant is m[dbKey(db)] (name "") or m[prefix+tableKey(db, name)]
// (tables; routines with routineKey's prefix), the folded key built on
// the stack so that a check allocates nothing.
func lookupGrant(m map[string]*Grant, prefix, db, name string) *Grant {
	if len(m) == 0 {
		return nil
	}
	var buf [128]byte
	k := appendLower(append(buf[:0], prefix...), db)
	if name != "" {
		k = appendLower(append(k, 0), name)
	}
	return m[string(k)]
}

// appendLower appends s with ASCII letters folded, as strings.ToLower
// folds the names plrun's catalog compares (non-ASCII through it).
func appendLower(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return append(b, strings.ToLower(s[i:])...)
		}
		b = append(b, lower(c))
	}
	return b
}

// AllowedRoutine is Allowed for a stored procedure (fn false) or
// function: global, database and routine grants (GRANT ... ON PROCEDURE).
func (g *Grants) AllowedRoutine(need privilege.Priv, db, name string, fn bool) bool {
	a := g.account()
	if a == nil {
		return false
	}
	have := a.Global
	if d := lookupGrant(a.DBs, "", db, ""); d != nil {
		have |= d.Priv
	}
	kind := "P"
	if fn {
		kind = "F"
	}
	if r := lookupGrant(a.Routines, kind, db, name); r != nil {
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
	if d := lookupGrant(a.DBs, "", db, ""); d != nil && d.Priv&^privilege.GrantOption != 0 {
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
