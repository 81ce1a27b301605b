package access

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/privilege"
)

// showNeeds classifies SHOW. The listing SHOWs (DATABASES, TABLES,
// PROCESSLIST, PROCEDURE STATUS, ...) need nothing or a visible database
// and list only what the account may see (the Sees* functions).
func showNeeds(x *ast.ShowStmt) []Need {
	switch x.Tp {
	case ast.ShowDatabases, ast.ShowVariables, ast.ShowStatus, ast.ShowWarnings, ast.ShowErrors,
		ast.ShowEngines, ast.ShowCharset, ast.ShowCollation, ast.ShowProcessList,
		ast.ShowProcedureStatus, ast.ShowFunctionStatus, ast.ShowPrivileges:
		return none
	case ast.ShowTables, ast.ShowTableStatus, ast.ShowTriggers:
		return []Need{{Scope: AnyInDatabase, DB: x.DBName}}
	case ast.ShowCreateDatabase:
		return []Need{{Scope: AnyInDatabase, DB: x.DBName}}
	case ast.ShowColumns, ast.ShowIndex:
		return []Need{inDB(tableAny(x.Table, "SELECT"), x.DBName)}
	case ast.ShowCreateTable:
		return []Need{inDB(tableAny(x.Table, "SHOW"), x.DBName)}
	case ast.ShowCreateView:
		// SELECT, then SHOW VIEW, on the view: MariaDB names the first
		// one missing.
		return []Need{tableNeed(privilege.Select, x.Table), tableNeed(privilege.ShowView, x.Table)}
	case ast.ShowGrants, ast.ShowCreateUser:
		if x.User == nil || x.User.CurrentUser {
			return none
		}
		// another account's: reading MariaDB's mysql database (1044)
		return []Need{{Priv: privilege.Select, Scope: OnDatabase, DB: "mysql", Name: selfCheck(x.User.Username, x.User.Hostname)}}
	}
	return unknown
}

// selfCheck marks a need the checker skips when user@host is the
// session's own account (SHOW GRANTS FOR me, ALTER USER me, SET PASSWORD
// FOR me): "\x00self:user@host" in Name.
func selfCheck(user, host string) string { return selfPrefix + user + "@" + host }

const selfPrefix = "\x00self:"

// selfOf is the account a selfCheck names.
func selfOf(name string) (user, host string, ok bool) {
	rest, ok := strings.CutPrefix(name, selfPrefix)
	if !ok {
		return "", "", false
	}
	i := strings.LastIndexByte(rest, '@')
	return rest[:i], rest[i+1:], true
}

func tableAny(t *ast.TableName, verb string) Need {
	n := tableNeed(0, t)
	if n.Scope == OnTable {
		n.Scope, n.Verb = AnyOnTable, verb
	}
	return n
}

// inDB is n in database db when its table names none (SHOW COLUMNS FROM
// t IN db).
func inDB(n Need, db string) Need {
	if n.DB == "" {
		n.DB = db
	}
	return n
}

func lower(s string) string { return strings.ToLower(s) }
