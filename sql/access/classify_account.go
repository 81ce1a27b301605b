package access

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/plrun/plrun/sql/privilege"
)

// accountNeeds classifies the account statements: CREATE/DROP/RENAME
// USER and ALTER USER of another account need CREATE USER (1227); SET
// PASSWORD for another account needs UPDATE on MariaDB's mysql database
// (1044, as MariaDB words it); GRANT and REVOKE need GRANT OPTION and
// the privileges given, at the level they are given at.
func accountNeeds(n ast.StmtNode) ([]Need, bool) {
	createUser := []Need{{Priv: privilege.CreateUser, Scope: Global}}
	switch x := n.(type) {
	case *ast.CreateUserStmt:
		if x.IsCreateRole {
			return unknown, true // plrun has no roles
		}
		return createUser, true
	case *ast.DropUserStmt:
		if x.IsDropRole {
			return unknown, true
		}
		return createUser, true
	case *ast.RenameUserStmt:
		return createUser, true
	case *ast.AlterUserStmt:
		if x.CurrentAuth != nil {
			return none, true // ALTER USER USER() IDENTIFIED BY
		}
		var out []Need
		for _, sp := range x.Specs {
			if sp.User == nil {
				return createUser, true
			}
			if sp.User.CurrentUser {
				continue
			}
			out = append(out, Need{Priv: privilege.CreateUser, Scope: Global, Name: selfCheck(sp.User.Username, sp.User.Hostname)})
		}
		if out == nil {
			return none, true
		}
		return out, true
	case *ast.SetPwdStmt:
		if x.User == nil || x.User.CurrentUser {
			return none, true
		}
		return []Need{{Priv: privilege.Update, Scope: OnDatabase, DB: "mysql", Name: selfCheck(x.User.Username, x.User.Hostname)}}, true
	case *ast.GrantStmt:
		return grantNeeds(x.Privs, x.ObjectType, x.Level), true
	case *ast.RevokeStmt:
		return grantNeeds(x.Privs, x.ObjectType, x.Level), true
	}
	return nil, false
}

// grantNeeds: GRANT OPTION plus the privileges granted, on the level
// they are granted at.
func grantNeeds(privs []*ast.PrivElem, obj ast.ObjectTypeType, lv *ast.GrantLevel) []Need {
	if lv == nil {
		return unknown
	}
	need := privilege.GrantOption
	for _, pe := range privs {
		if pe.Priv == mysql.AllPriv {
			need |= privilege.All
			continue
		}
		name, ok := mysql.Priv2Str[pe.Priv]
		if !ok {
			name = pe.Name
		}
		p, ok := privilege.Parse(name)
		if !ok {
			if pe.Priv == mysql.UsagePriv {
				continue
			}
			return unknown
		}
		need |= p
	}
	switch {
	case obj == ast.ObjectTypeProcedure || obj == ast.ObjectTypeFunction:
		return []Need{{Priv: need, Scope: OnRoutine, DB: lv.DBName, Name: lv.TableName, Verb: "execute", Function: obj == ast.ObjectTypeFunction}}
	case lv.Level == ast.GrantLevelGlobal:
		return []Need{{Priv: need, Scope: OnServer}}
	case lv.Level == ast.GrantLevelDB:
		return []Need{{Priv: need, Scope: OnDatabase, DB: lv.DBName}}
	case lv.Level == ast.GrantLevelTable:
		return []Need{{Priv: need, Scope: OnTable, DB: lv.DBName, Name: lv.TableName}}
	}
	return unknown
}
