package show

import (
	"sort"
	"strings"

	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
)

// namedTable is a name SHOW TABLES lists: a base table or a view.
type namedTable struct {
	name, kind string // kind: BASE TABLE or VIEW
}

// tablesAndViews lists db's tables and views by name, as SHOW [FULL]
// TABLES does.
func tablesAndViews(cat *storage.Catalog, db string) []namedTable {
	var out []namedTable
	for _, t := range cat.Tables(db) {
		out = append(out, namedTable{t.Def.Name, "BASE TABLE"})
	}
	for _, v := range cat.Views(db) {
		out = append(out, namedTable{v.Name, "VIEW"})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// CreateViewText is a view's CREATE statement as SHOW CREATE VIEW prints
// it; the view is named with its database when that is not db, the
// session's, as MariaDB prints it.
func CreateViewText(v *storage.ViewDef, db string) string {
	var b strings.Builder
	b.WriteString("CREATE ALGORITHM=" + v.Algorithm + " DEFINER=" + v.Definer + " SQL SECURITY " + v.Security + " VIEW ")
	if !strings.EqualFold(v.DB, db) {
		b.WriteString(quoteIdent(v.DB) + ".")
	}
	b.WriteString(quoteIdent(v.Name) + " AS " + v.Select)
	if v.CheckOption != "" && v.CheckOption != "NONE" {
		b.WriteString(" WITH " + v.CheckOption + " CHECK OPTION")
	}
	return b.String()
}

// showCreateView is SHOW CREATE VIEW (and SHOW CREATE TABLE of a view):
// 1347 if db.name is a table, 1146 if neither.
func showCreateView(cat *storage.Catalog, db, name, sessionDB string) (*exec.Result, error) {
	v := cat.View(db, name)
	if v == nil {
		if cat.Table(db, name) != nil {
			return nil, sqlerr.New(sqlerr.ErNotView, "'%s.%s' is not of type 'VIEW'", db, name)
		}
		return nil, sqlerr.New(sqlerr.ErNoSuchTable, "Table '%s.%s' doesn't exist", db, name)
	}
	return StringRows([]string{"View", "Create View", "character_set_client", "collation_connection"},
		[][]string{{v.Name, CreateViewText(v, sessionDB), v.Charset, v.Collation}}), nil
}

func quoteIdent(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }
