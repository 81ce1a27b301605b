package access

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sql/privilege"
	"github.com/plrun/plrun/sql/sysvar"
)

// setNeeds: SET GLOBAL (and a plain SET of a global-only setting, which
// plrun applies globally) needs SUPER; a session or user variable nothing.
func setNeeds(x *ast.SetStmt) []Need {
	for _, v := range x.Variables {
		if !v.IsSystem {
			continue
		}
		d, ok := sysvar.Defs[lower(v.Name)]
		// a dotted name is SET @@PERSIST.x / @@PERSIST_ONLY.x (sql/setpersist.go)
		if v.IsGlobal || strings.Contains(v.Name, ".") || (ok && !d.Session && d.Global && !d.ReadOnly) {
			return []Need{{Priv: privilege.Super, Scope: Global}}
		}
	}
	return none
}

// ddlNeeds classifies the schema statements.
func ddlNeeds(n ast.StmtNode) ([]Need, bool) {
	switch x := n.(type) {
	case *ast.CreateDatabaseStmt:
		return []Need{{Priv: privilege.Create, Scope: OnDatabase, DB: x.Name.O}}, true
	case *ast.DropDatabaseStmt:
		return []Need{{Priv: privilege.Drop, Scope: OnDatabase, DB: x.Name.O}}, true
	case *ast.CreateTableStmt:
		return createTableNeeds(x), true
	case *ast.DropTableStmt:
		if x.TemporaryKeyword != ast.TemporaryNone {
			return none, true // the session's own tables
		}
		var out []Need
		for _, t := range x.Tables {
			out = append(out, tableNeed(privilege.Drop, t))
		}
		return out, true
	case *ast.TruncateTableStmt:
		return []Need{tableNeed(privilege.Drop, x.Table)}, true
	case *ast.AlterTableStmt:
		out := []Need{tableNeed(privilege.Alter, x.Table)}
		for _, sp := range x.Specs {
			if sp.Tp == ast.AlterTableRenameTable && sp.NewTable != nil {
				out[0].Priv |= privilege.Drop
				out = append(out, tableNeed(privilege.Create|privilege.Insert, sp.NewTable))
			}
			if sp.Constraint != nil && sp.Constraint.Refer != nil && sp.Constraint.Refer.Table != nil {
				out = append(out, tableNeed(privilege.References, sp.Constraint.Refer.Table))
			}
		}
		return out, true
	case *ast.CreateIndexStmt:
		return []Need{tableNeed(privilege.Index, x.Table)}, true
	case *ast.DropIndexStmt:
		return []Need{tableNeed(privilege.Index, x.Table)}, true
	case *ast.RenameTableStmt:
		var out []Need
		for _, tt := range x.TableToTables {
			out = append(out, tableNeed(privilege.Alter|privilege.Drop, tt.OldTable), tableNeed(privilege.Create|privilege.Insert, tt.NewTable))
		}
		return out, true
	case *ast.CreateViewStmt:
		// CREATE VIEW on the view (OR REPLACE / ALTER VIEW also DROP, as
		// MySQL), SELECT on what it reads.
		priv := privilege.CreateView
		if x.OrReplace {
			priv |= privilege.Drop
		}
		out := []Need{tableNeed(priv, x.ViewName)}
		if x.Select != nil {
			out = onRefs(out, parse.ReadRefsOf(x.Select), 0, privilege.Select)
		}
		return out, true
	case *ast.LockTablesStmt:
		return lockNeeds(x.TableLocks), true
	}
	return nil, false
}

// createTableNeeds: CREATE on the new table (CREATE TEMPORARY TABLES on
// its database for a temporary one; ... SELECT also INSERT), SELECT on
// what its SELECT or LIKE reads, REFERENCES on a foreign key's parent.
func createTableNeeds(x *ast.CreateTableStmt) []Need {
	var out []Need
	if x.TemporaryKeyword != ast.TemporaryNone {
		out = append(out, Need{Priv: privilege.CreateTmpTable, Scope: OnDatabase, DB: x.Table.Schema.O})
	} else {
		priv := privilege.Create
		if x.Select != nil {
			priv |= privilege.Insert
		}
		out = append(out, tableNeed(priv, x.Table))
	}
	if x.ReferTable != nil {
		out = append(out, tableNeed(privilege.Select, x.ReferTable))
	}
	if x.Select != nil {
		out = onRefs(out, parse.ReadRefsOf(x.Select), 0, privilege.Select)
	}
	for _, c := range x.Constraints {
		if c.Refer != nil && c.Refer.Table != nil {
			out = append(out, tableNeed(privilege.References, c.Refer.Table))
		}
	}
	for _, col := range x.Cols {
		for _, o := range col.Options {
			if o.Refer != nil && o.Refer.Table != nil {
				out = append(out, tableNeed(privilege.References, o.Refer.Table))
			}
		}
	}
	return out
}

// lockNeeds: LOCK TABLES on each table's database and SELECT on the
// table, as MySQL.
func lockNeeds(locks []ast.TableLock) []Need {
	var out []Need
	for _, l := range locks {
		if l.Table == nil {
			continue
		}
		out = append(out, tableNeed(privilege.Select, l.Table),
			Need{Priv: privilege.LockTables, Scope: OnDatabase, DB: l.Table.Schema.O})
	}
	return out
}

func tableNeed(p privilege.Priv, t *ast.TableName) Need {
	if t == nil {
		return Need{Scope: Unknown}
	}
	return Need{Priv: p, Scope: OnTable, DB: t.Schema.O, Name: t.Name.O}
}
