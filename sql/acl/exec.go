package acl

import (
	"context"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/auth"
	"github.com/plrun/plrun/sqlerr"
)

// Env is what an account statement needs of the session running it.
type Env struct {
	Journal Journal
	// DB is the session's default database (GRANT ... ON t, ON *).
	DB string
	// Current is the session's account (CURRENT_USER()); nil for an
	// unchecked session (embedded, REPL), which has none.
	Current *Grants
	// Text is the statement's text: SET PASSWORD = PASSWORD('pw') and
	// = 'hash' parse alike, MariaDB treats them differently.
	Text string
	// TableExists and RoutineExists answer GRANT's checks that its object
	// exists (1146, 1305).
	TableExists   func(db, table string) bool
	RoutineExists func(db, name string, fn bool) bool
}

// Result is what an account statement returns: notes, or SHOW's rows.
type Result struct {
	Notes  []Note
	Column string   // SHOW GRANTS / SHOW CREATE USER's one column
	Rows   []string // its rows
}

// IsAccountStmt reports whether n is a statement Exec runs.
func IsAccountStmt(n ast.StmtNode) bool {
	switch n := n.(type) {
	case *ast.CreateUserStmt, *ast.DropUserStmt, *ast.AlterUserStmt, *ast.SetPwdStmt,
		*ast.RenameUserStmt, *ast.GrantStmt, *ast.RevokeStmt, *ast.GrantRoleStmt,
		*ast.RevokeRoleStmt, *ast.GrantProxyStmt, *ast.SetRoleStmt, *ast.SetDefaultRoleStmt:
		return true
	case *ast.ShowStmt:
		return n.Tp == ast.ShowGrants || n.Tp == ast.ShowCreateUser
	}
	return false
}

// Exec runs an account statement (IsAccountStmt).
func (c *Catalog) Exec(ctx context.Context, env *Env, n ast.StmtNode) (*Result, error) {
	var notes []Note
	var err error
	switch n := n.(type) {
	case *ast.CreateUserStmt:
		notes, err = c.createUser(ctx, env, n)
	case *ast.DropUserStmt:
		notes, err = c.dropUser(ctx, env, n)
	case *ast.AlterUserStmt:
		notes, err = c.alterUser(ctx, env, n)
	case *ast.SetPwdStmt:
		notes, err = c.setPassword(ctx, env, n)
	case *ast.RenameUserStmt:
		notes, err = c.renameUser(ctx, env, n)
	case *ast.GrantStmt:
		notes, err = c.grant(ctx, env, n)
	case *ast.RevokeStmt:
		notes, err = c.revoke(ctx, env, n)
	case *ast.ShowStmt:
		return c.show(env, n)
	case *ast.GrantRoleStmt, *ast.RevokeRoleStmt, *ast.SetRoleStmt, *ast.SetDefaultRoleStmt:
		return nil, unsupported("roles")
	case *ast.GrantProxyStmt:
		return nil, unsupported("GRANT PROXY")
	default:
		return nil, unsupported("this account statement")
	}
	if err != nil {
		return nil, err
	}
	return &Result{Notes: notes}, nil
}

// The MySQL errors of account statements.
func unsupported(what string) error {
	return sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support '%s'", what)
}

func opFailed(op string, failed []string) error {
	return sqlerr.New(sqlerr.ErCannotUser, "Operation %s failed for %s", op, strings.Join(failed, ","))
}

var errNoSuchUser = sqlerr.New(sqlerr.ErPasswordNoMatch, "Can't find any matching row in the user table")

// target is a statement's account name, normalized as MariaDB stores
// it ('u'@” is 'u'@'%'), or the session's own for CURRENT_USER.
func target(env *Env, u *auth.UserIdentity) (user, host string, err error) {
	if u == nil || u.CurrentUser {
		if env.Current == nil {
			return "", "", errNoSuchUser
		}
		return env.Current.User(), env.Current.Host(), nil
	}
	user, host = u.Username, u.Hostname
	if host == "" {
		host = "%"
	}
	if len([]rune(user)) > 128 {
		return "", "", sqlerr.New(sqlerr.ErWrongStringLength, "String '%s' is too long for user name (should be no longer than 128)", user)
	}
	if len([]rune(host)) > 255 {
		return "", "", sqlerr.New(sqlerr.ErWrongStringLength, "String '%s' is too long for host name (should be no longer than 255)", host)
	}
	return user, host, nil
}

func quoteAccount(user, host string) string { return "'" + user + "'@'" + host + "'" }
