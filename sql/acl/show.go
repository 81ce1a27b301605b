package acl

import (
	"sort"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/privilege"
	"github.com/plrun/plrun/sqlerr"
)

// showOrder is the order MariaDB's SHOW GRANTS lists privileges in.
var showOrder = []privilege.Priv{
	privilege.Select, privilege.Insert, privilege.Update, privilege.Delete, privilege.Create,
	privilege.Drop, privilege.Reload, privilege.Shutdown, privilege.Process, privilege.File,
	privilege.References, privilege.Index, privilege.Alter, privilege.Super,
	privilege.CreateTmpTable, privilege.LockTables, privilege.Execute, privilege.CreateView,
	privilege.ShowView, privilege.CreateRoutine, privilege.AlterRoutine, privilege.CreateUser,
	privilege.Trigger,
}

// privText is p as SHOW GRANTS writes it at a level that can hold mask:
// ALL PRIVILEGES when it holds all, USAGE when nothing.
func privText(p, mask privilege.Priv) string {
	p &^= privilege.GrantOption
	if p == 0 {
		return "USAGE"
	}
	if p == mask&^privilege.GrantOption {
		return "ALL PRIVILEGES"
	}
	var names []string
	for _, q := range showOrder {
		if p&q != 0 {
			names = append(names, q.String())
		}
	}
	return strings.Join(names, ", ")
}

func quoteIdent(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }

func accountIdent(a *Account) string { return quoteIdent(a.User) + "@" + quoteIdent(a.Host) }

// identifiedText is SHOW GRANTS's and SHOW CREATE USER's authentication
// clause: the stored secret, never a password.
func identifiedText(a *Account) string {
	switch {
	case a.Auth == "" && a.Plugin == NativePassword:
		return ""
	case a.Plugin == NativePassword:
		return " IDENTIFIED BY PASSWORD '" + a.Auth + "'"
	case a.Auth == "":
		return " IDENTIFIED VIA " + a.Plugin
	}
	return " IDENTIFIED VIA " + a.Plugin + " USING '" + a.Auth + "'"
}

func withGrant(p privilege.Priv) string {
	if p&privilege.GrantOption != 0 {
		return " WITH GRANT OPTION"
	}
	return ""
}

// ShowGrants is SHOW GRANTS's lines for a, as MariaDB writes them: *.*
// (with the authentication), then databases, tables and routines by name.
func ShowGrants(a *Account) []string {
	to := " TO " + accountIdent(a)
	lines := []string{"GRANT " + privText(a.Global, privilege.All) + " ON *.*" + to + identifiedText(a) + withGrant(a.Global)}
	for _, g := range sortedGrants(a.DBs) {
		lines = append(lines, "GRANT "+privText(g.Priv, dbPrivs)+" ON "+quoteIdent(g.DB)+".*"+to+withGrant(g.Priv))
	}
	for _, g := range sortedGrants(a.Tables) {
		lines = append(lines, "GRANT "+privText(g.Priv, tablePrivs)+" ON "+quoteIdent(g.DB)+"."+quoteIdent(g.Name)+to+withGrant(g.Priv))
	}
	for _, g := range sortedGrants(a.Routines) {
		kind := " ON PROCEDURE "
		if g.Func {
			kind = " ON FUNCTION "
		}
		lines = append(lines, "GRANT "+privText(g.Priv, routinePrivs)+kind+quoteIdent(g.DB)+"."+quoteIdent(g.Name)+to+withGrant(g.Priv))
	}
	return lines
}

// sortedGrants orders grants as MariaDB's SHOW GRANTS does: database
// names without wildcards first, in the order they were granted, then
// patterns, the earlier their first wildcard the sooner; tables and
// routines by name.
func sortedGrants(m map[string]*Grant) []*Grant {
	out := make([]*Grant, 0, len(m))
	for _, g := range m {
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Name == "" && b.Name == "" {
			if wa, wb := wildcardAt(a.DB), wildcardAt(b.DB); wa != wb {
				return wa < wb
			}
			return a.Seq < b.Seq
		}
		if a.DB != b.DB {
			return a.DB < b.DB
		}
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return !a.Func && b.Func
	})
	return out
}

// wildcardAt is where a database pattern's first wildcard is (-1: none).
func wildcardAt(db string) int {
	i := strings.IndexAny(db, "%_")
	if i < 0 {
		return -1
	}
	return i
}

// show is SHOW GRANTS [FOR u | FOR CURRENT_USER[()]] and SHOW CREATE USER u.
func (c *Catalog) show(env *Env, n *ast.ShowStmt) (*Result, error) {
	user, host, err := target(env, n.User)
	if err != nil {
		if n.Tp == ast.ShowGrants && env.Current == nil && (n.User == nil || n.User.CurrentUser) {
			return nil, sqlerr.New(sqlerr.ErPasswordNoMatch, "Can't find any matching row in the user table (this session runs unchecked, as no account)")
		}
		return nil, err
	}
	a := c.Current().Lookup(user, host)
	if n.Tp == ast.ShowCreateUser {
		if a == nil {
			return nil, errNoSuchUser
		}
		return &Result{Column: "CREATE USER for " + user + "@" + host,
			Rows: []string{"CREATE USER " + accountIdent(a) + identifiedText(a)}}, nil
	}
	if a == nil {
		return nil, sqlerr.New(sqlerr.ErNonexistingGrant, "There is no such grant defined for user '%s' on host '%s'", user, host)
	}
	return &Result{Column: "Grants for " + user + "@" + host, Rows: ShowGrants(a)}, nil
}
