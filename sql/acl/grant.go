package acl

import (
	"context"
	"regexp"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sqlerr"
)

// grant is GRANT priv_list ON level TO accounts [WITH GRANT OPTION]. As
// MariaDB (sql_mode NO_AUTO_CREATE_USER): an account that does not exist
// is 1133 and is not created; the others get the grant. IDENTIFIED BY
// sets an existing account's password.
func (c *Catalog) grant(ctx context.Context, env *Env, n *ast.GrantStmt) ([]Note, error) {
	if len(n.AuthTokenOrTLSOptions) > 0 {
		return nil, unsupported("REQUIRE (TLS options of an account)")
	}
	lv, err := levelOf(env, n.ObjectType, n.Level)
	if err != nil {
		return nil, err
	}
	privs, err := privsOf(n.Privs, lv, n.WithGrant)
	if err != nil {
		return nil, err
	}
	if err := objectExists(env, lv); err != nil {
		return nil, err
	}
	return c.apply(ctx, env.Journal, func(cur *State) (*change, error) {
		e, ch := cur.edit(), &change{}
		var missing error
		for _, spec := range n.Users {
			user, host, err := target(env, spec.User)
			if err != nil {
				return nil, err
			}
			a := e.account(user, host)
			if a == nil {
				missing = errNoSuchUser
				continue
			}
			if spec.AuthOpt != nil {
				sec, err := secretOf(spec.AuthOpt)
				if err != nil {
					return nil, err
				}
				a.Plugin, a.Auth = sec.plugin, sec.auth
			}
			a.setAt(lv, a.heldAt(lv)|privs)
			ch.next = e.s
		}
		if ch.next != nil {
			ch.next = e.done()
		}
		return ch, missing
	})
}

// objectExists is GRANT's check that a table or routine grant names
// something that exists (a database grant need not).
func objectExists(env *Env, lv level) error {
	switch {
	case lv.routine:
		if env.RoutineExists == nil || !env.RoutineExists(lv.db, lv.name, lv.fn) {
			return sqlerr.New(sqlerr.ErSPDoesNotExist, "FUNCTION or PROCEDURE %s does not exist", lv.name)
		}
	case lv.kind == ast.GrantLevelTable:
		if env.TableExists == nil || !env.TableExists(lv.db, lv.name) {
			return sqlerr.New(sqlerr.ErNoSuchTable, "Table '%s.%s' doesn't exist", lv.db, lv.name)
		}
	}
	return nil
}

// revokeEverything is REVOKE ALL [PRIVILEGES], GRANT OPTION FROM ...,
// which the parser reads as a global REVOKE.
var revokeEverything = regexp.MustCompile(`(?is)^\s*REVOKE\s+ALL(\s+PRIVILEGES)?\s*,\s*GRANT\s+OPTION\s+FROM\b`)

// revoke is REVOKE priv_list ON level FROM accounts, and REVOKE ALL
// PRIVILEGES, GRANT OPTION FROM accounts (every level).
func (c *Catalog) revoke(ctx context.Context, env *Env, n *ast.RevokeStmt) ([]Note, error) {
	if revokeEverything.MatchString(env.Text) {
		return c.revokeAll(ctx, env, n)
	}
	lv, err := levelOf(env, n.ObjectType, n.Level)
	if err != nil {
		return nil, err
	}
	privs, err := privsOf(n.Privs, lv, false)
	if err != nil {
		return nil, err
	}
	return c.apply(ctx, env.Journal, func(cur *State) (*change, error) {
		e, ch := cur.edit(), &change{}
		var firstErr error
		for _, spec := range n.Users {
			user, host, err := target(env, spec.User)
			if err != nil {
				return nil, err
			}
			a := e.account(user, host)
			if a == nil || lv.kind != ast.GrantLevelGlobal && a.grantAt(lv) == nil {
				if firstErr == nil {
					firstErr = noSuchGrant(user, host, lv)
				}
				continue
			}
			a.setAt(lv, a.heldAt(lv)&^privs)
			ch.next = e.s
		}
		if ch.next != nil {
			ch.next = e.done()
		}
		return ch, firstErr
	})
}

// noSuchGrant is REVOKE's error for what was not granted: 1141, or 1147
// on a table, or 1403 on a routine.
func noSuchGrant(user, host string, lv level) error {
	switch {
	case lv.routine:
		return sqlerr.New(sqlerr.ErNonexistingProcGrant, "There is no such grant defined for user '%s' on host '%s' on routine '%s'", user, host, lv.name)
	case lv.kind == ast.GrantLevelTable:
		return sqlerr.New(sqlerr.ErNonexistingTableGrant, "There is no such grant defined for user '%s' on host '%s' on table '%s'", user, host, lv.name)
	}
	return sqlerr.New(sqlerr.ErNonexistingGrant, "There is no such grant defined for user '%s' on host '%s'", user, host)
}

func (c *Catalog) revokeAll(ctx context.Context, env *Env, n *ast.RevokeStmt) ([]Note, error) {
	return c.apply(ctx, env.Journal, func(cur *State) (*change, error) {
		e, ch := cur.edit(), &change{}
		var missing error
		for _, spec := range n.Users {
			user, host, err := target(env, spec.User)
			if err != nil {
				return nil, err
			}
			a := e.account(user, host)
			if a == nil {
				missing = sqlerr.New(sqlerr.ErRevokeGrants, "Can't revoke all privileges for one or more of the requested users")
				continue
			}
			a.Global, a.DBs, a.Tables, a.Routines = 0, nil, nil, nil
			ch.next = e.s
		}
		if ch.next != nil {
			ch.next = e.done()
		}
		return ch, missing
	})
}
