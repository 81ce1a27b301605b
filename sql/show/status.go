package show

import (
	"sort"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/infoschema"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
)

// tableStatus is SHOW TABLE STATUS [FROM db] [LIKE ...]: the rows of
// information_schema.TABLES, as MariaDB prints them.
func tableStatus(s *exec.State, cat *storage.Catalog, n *ast.ShowStmt, match func(string) bool) (*exec.Result, error) {
	db, err := s.DBFor(n.DBName)
	if err != nil {
		return nil, err
	}
	r := &exec.Result{}
	for _, c := range infoschema.StatusColumns() {
		r.Columns = append(r.Columns, exec.Column{Name: c.Name, Type: c.Type, NotNull: c.NotNull})
	}
	if s.IsVirtual(db) {
		for _, name := range infoschema.TableNames(db) {
			if match(name) {
				r.Rows = append(r.Rows, infoschema.SystemStatusRow(s.VirtualName(db), name))
			}
		}
		return r, nil
	}
	if !cat.HasDatabase(db) {
		return nil, sqlerr.New(sqlerr.ErBadDB, "Unknown database '%s'", db)
	}
	for _, t := range cat.Tables(db) {
		if match(t.Def.Name) {
			r.Rows = append(r.Rows, infoschema.StatusRow(t))
		}
	}
	for _, v := range cat.Views(db) {
		if match(v.Name) {
			r.Rows = append(r.Rows, infoschema.ViewStatusRow(v))
		}
	}
	// by name, tables and views together, as MariaDB lists them
	sort.SliceStable(r.Rows, func(i, j int) bool { return r.Rows[i][0].S < r.Rows[j][0].S })
	return r, nil
}

// createDatabase is SHOW CREATE DATABASE [IF NOT EXISTS] db.
func createDatabase(s *exec.State, cat *storage.Catalog, n *ast.ShowStmt) (*exec.Result, error) {
	name := n.DBName
	switch {
	case s.IsVirtual(name):
		name = s.VirtualName(name)
	case cat.HasDatabase(name):
		name = cat.DatabaseName(name)
	default:
		return nil, sqlerr.New(sqlerr.ErBadDB, "Unknown database '%s'", n.DBName)
	}
	text := "CREATE DATABASE "
	if n.IfNotExists {
		text += "/*!32312 IF NOT EXISTS*/ "
	}
	charset, collation := infoschema.SchemaCharset(name)
	text += quoteName(name) + " /*!40100 DEFAULT CHARACTER SET " + charset + " COLLATE " + collation + " */"
	return StringRows([]string{"Database", "Create Database"}, [][]string{{name, text}}), nil
}

// describeFull is SHOW FULL COLUMNS: SHOW COLUMNS with Collation,
// Privileges and Comment.
func describeFull(def *storage.TableDef, match func(string) bool) *exec.Result {
	r := &exec.Result{}
	for _, c := range []string{"Field", "Type", "Collation", "Null", "Key", "Default", "Extra", "Privileges", "Comment"} {
		r.Columns = append(r.Columns, exec.Column{Name: c, Type: expr.TVarchar})
	}
	for i := range def.Columns {
		c := &def.Columns[i]
		if !match(c.Name) {
			continue
		}
		collation := types.Null
		if c.Type.IsString() && !c.Type.IsBinary() {
			collation = types.StringValue(def.Collate)
		}
		r.Rows = append(r.Rows, []types.Value{types.StringValue(c.Name), types.StringValue(c.Type.SQL()), collation,
			types.StringValue(nullable(c)), types.StringValue(infoschema.ColumnKey(def, i)), infoschema.ShowDefault(c),
			types.StringValue(infoschema.Extra(c)), types.StringValue("select,insert,update,references"), types.StringValue(c.Comment)})
	}
	return r
}

// virtualTables is SHOW [FULL] TABLES of information_schema (SYSTEM
// VIEWs) or performance_schema (BASE TABLEs, as MariaDB lists them).
func virtualTables(db string, n *ast.ShowStmt, match func(string) bool) *exec.Result {
	var rows [][]string
	for _, name := range infoschema.TableNames(db) {
		if match(name) {
			row := []string{name}
			if n.Full {
				row = append(row, "SYSTEM VIEW")
				if db == infoschema.PerfName {
					row[1] = "BASE TABLE"
				}
			}
			rows = append(rows, row)
		}
	}
	cols := []string{"Tables_in_" + db + likeSuffix(n)}
	if n.Full {
		cols = append(cols, "Table_type")
	}
	return StringRows(cols, rows)
}
