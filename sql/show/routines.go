package show

import (
	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
)

// ProcStatus is SHOW PROCEDURE STATUS [LIKE like].
func ProcStatus(cat *storage.Catalog, pc *procs.Catalog, like string) *exec.Result {
	r := &exec.Result{}
	for _, c := range []string{"Db", "Name", "Type", "Language", "Definer", "Modified", "Created", "Security_type", "Comment"} {
		r.Columns = append(r.Columns, exec.Column{Name: c, Type: expr.TVarchar})
	}
	for _, db := range cat.Databases() {
		for _, d := range pc.ListIn(db) {
			if like != "" && !expr.LikeMatch(like, d.Name) {
				continue
			}
			row := []string{db, d.Name, "PROCEDURE", d.Language, d.ShownDefiner(), d.Modified, d.Created, d.SecurityType(), ""}
			vs := make([]types.Value, len(row))
			for i, v := range row {
				vs[i] = types.StringValue(v)
			}
			r.Rows = append(r.Rows, vs)
		}
	}
	return r
}

// CreateProc is SHOW CREATE PROCEDURE of db.name; sqlMode is the global
// sql_mode it reports.
func CreateProc(pc *procs.Catalog, db, name, sqlMode string) (*exec.Result, error) {
	def, _, ok := pc.Get(db, name)
	if !ok {
		return nil, sqlerr.New(sqlerr.ErSPDoesNotExist, "PROCEDURE %s does not exist", name)
	}
	return StringRows([]string{"Procedure", "sql_mode", "Create Procedure", "character_set_client", "collation_connection", "Database Collation"},
		[][]string{{def.Name, sqlMode, procs.FormatCreate(def), "utf8mb4", "utf8mb4_general_ci", "utf8mb4_general_ci"}}), nil
}

// FuncStatus is SHOW FUNCTION STATUS [LIKE like].
func FuncStatus(cat *storage.Catalog, pc *procs.Catalog, like string) *exec.Result {
	r := &exec.Result{}
	for _, c := range []string{"Db", "Name", "Type", "Definer", "Modified", "Created", "Security_type", "Comment",
		"character_set_client", "collation_connection", "Database Collation"} {
		r.Columns = append(r.Columns, exec.Column{Name: c, Type: expr.TVarchar})
	}
	for _, db := range cat.Databases() {
		for _, d := range pc.ListFunctionsIn(db) {
			if like != "" && !expr.LikeMatch(like, d.Name) {
				continue
			}
			row := []string{db, d.Name, "FUNCTION", d.ShownDefiner(), d.Modified, d.Created, d.Func.SecurityType(), d.Func.Comment,
				"utf8mb4", "utf8mb4_general_ci", "utf8mb4_general_ci"}
			vs := make([]types.Value, len(row))
			for i, v := range row {
				vs[i] = types.StringValue(v)
			}
			r.Rows = append(r.Rows, vs)
		}
	}
	return r
}

// CreateFunc is SHOW CREATE FUNCTION of db.name; returns prints a RETURNS
// type as MariaDB does (INT as int(11)).
func CreateFunc(pc *procs.Catalog, db, name string, returns func(string) string) (*exec.Result, error) {
	def, _, ok := pc.GetFunction(db, name)
	if !ok {
		return nil, sqlerr.New(sqlerr.ErSPDoesNotExist, "FUNCTION %s does not exist", name)
	}
	return StringRows([]string{"Function", "sql_mode", "Create Function", "character_set_client", "collation_connection", "Database Collation"},
		[][]string{{def.Name, def.Func.SQLMode, procs.FormatCreateFunction(def, returns(def.Func.Returns)), "utf8mb4", "utf8mb4_general_ci", "utf8mb4_general_ci"}}), nil
}
