package infoschema

import (
	"sort"

	"github.com/plrun/plrun/sql/acl"
	"github.com/plrun/plrun/sql/privilege"
	"github.com/plrun/plrun/types"
)

// The account catalog's grants, as MariaDB's USER_PRIVILEGES,
// SCHEMA_PRIVILEGES and TABLE_PRIVILEGES show them: one row per
// privilege, IS_GRANTABLE for WITH GRANT OPTION; an account with no
// global privilege has one USAGE row. Source.Accounts says whose.

func init() {
	grantee := column{"GRANTEE", varchar(385), true}
	catalog := column{"TABLE_CATALOG", varchar(512), true}
	kind := column{"PRIVILEGE_TYPE", varchar(64), true}
	grantable := column{"IS_GRANTABLE", varchar(3), true}
	register(&table{name: "USER_PRIVILEGES", cols: []column{grantee, catalog, kind, grantable}, rows: userPrivilegeRows})
	register(&table{name: "SCHEMA_PRIVILEGES", cols: []column{grantee, catalog, {"TABLE_SCHEMA", varchar(64), true}, kind, grantable},
		rows: func(src Source, _ filter) [][]types.Value { return grantRows(src, false) }})
	register(&table{name: "TABLE_PRIVILEGES", cols: []column{grantee, catalog, {"TABLE_SCHEMA", varchar(64), true},
		{"TABLE_NAME", varchar(64), true}, kind, grantable},
		rows: func(src Source, _ filter) [][]types.Value { return grantRows(src, true) }})
}

func grantee(a *acl.Account) types.Value { return str("'" + a.User + "'@'" + a.Host + "'") }

// accountsByName are the accounts the session may see, by user and host.
func accountsByName(src Source) []*acl.Account {
	out := append([]*acl.Account(nil), src.Accounts()...)
	sort.Slice(out, func(i, j int) bool {
		if out[i].User != out[j].User {
			return out[i].User < out[j].User
		}
		return out[i].Host < out[j].Host
	})
	return out
}

func userPrivilegeRows(src Source, _ filter) [][]types.Value {
	var out [][]types.Value
	for _, a := range accountsByName(src) {
		names := acl.PrivilegeNames(a.Global)
		if len(names) == 0 {
			names = []string{"USAGE"}
		}
		for _, n := range names {
			out = append(out, []types.Value{grantee(a), str("def"), str(n), str(yesNo(a.Global&privilege.GrantOption != 0))})
		}
	}
	return out
}

// grantRows are SCHEMA_PRIVILEGES' (tables false) or TABLE_PRIVILEGES'
// rows.
func grantRows(src Source, tables bool) [][]types.Value {
	var out [][]types.Value
	for _, a := range accountsByName(src) {
		m := a.DBs
		if tables {
			m = a.Tables
		}
		for _, g := range acl.SortedGrants(m) {
			for _, n := range acl.PrivilegeNames(g.Priv) {
				row := []types.Value{grantee(a), str("def"), str(g.DB)}
				if tables {
					row = append(row, str(g.Name))
				}
				out = append(out, append(row, str(n), str(yesNo(g.Priv&privilege.GrantOption != 0))))
			}
		}
	}
	return out
}
