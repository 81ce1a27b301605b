package ddl

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
)

// KeepsTransaction reports whether n is DDL that does not commit the open
// transaction: CREATE TEMPORARY TABLE and DROP TEMPORARY TABLE, as in
// MySQL (a plain DROP TABLE commits, whatever it drops).
func KeepsTransaction(n ast.StmtNode) bool {
	switch x := n.(type) {
	case *ast.CreateTableStmt:
		return x.TemporaryKeyword == ast.TemporaryLocal
	case *ast.DropTableStmt:
		return x.TemporaryKeyword == ast.TemporaryLocal && !x.IsView
	}
	return false
}

// likeDef is the definition CREATE TABLE ... LIKE copies: the source's
// columns, keys and CHECKs, not its foreign keys (as MariaDB does).
func likeDef(s *exec.State, cat *storage.Catalog, db string, x *ast.CreateTableStmt) (*storage.TableDef, error) {
	src, err := s.ResolveTable(x.ReferTable)
	if e, ok := sqlerr.As(err); ok && e.Code == sqlerr.ErNoSuchTable {
		if rdb, derr := s.DBFor(x.ReferTable.Schema.O); derr == nil && cat.View(rdb, x.ReferTable.Name.O) != nil {
			return nil, sqlerr.New(sqlerr.ErNotView, "'%s.%s' is not of type 'BASE TABLE'", rdb, x.ReferTable.Name.O)
		}
	}
	if err != nil {
		return nil, err
	}
	def := *src.Def
	def.DB, def.Name = db, x.Table.Name.O
	def.Columns = append([]storage.Column(nil), src.Def.Columns...)
	def.Indexes = append([]storage.IndexDef(nil), src.Def.Indexes...)
	def.Checks = append([]storage.Check(nil), src.Def.Checks...)
	def.ForeignKeys = nil
	return &def, nil
}

// createTemporary installs def as one of the session's temporary tables:
// no log record, no catalog entry, nothing durable.
func createTemporary(s *exec.State, def *storage.TableDef, autoStart uint64, ifNotExists bool) (*exec.Result, error) {
	if s.TempTable(def.DB, def.Name) != nil {
		if ifNotExists {
			return exec.Noted("Note", sqlerr.ErTableExists, "Table '%s' already exists", def.Name), nil
		}
		return nil, sqlerr.New(sqlerr.ErTableExists, "Table '%s' already exists", def.Name)
	}
	t, _ := s.AddTempTable(def)
	if autoStart > 1 {
		t.SetAutoInc(autoStart - 1)
	}
	return &exec.Result{}, nil
}

// dropTemporary drops the temporary tables DROP TABLE names and returns
// the names left for the catalog. With TEMPORARY every name must be a
// temporary table (1051 lists the others; IF EXISTS makes them notes).
func dropTemporary(s *exec.State, x *ast.DropTableStmt) (rest []*ast.TableName, res *exec.Result, err error) {
	var missing []string
	for _, tn := range x.Tables {
		db, err := s.DBFor(tn.Schema.O)
		if err != nil {
			return nil, nil, err
		}
		if s.DropTempTable(db, tn.Name.O) {
			continue
		}
		if x.TemporaryKeyword == ast.TemporaryLocal {
			missing = append(missing, db+"."+tn.Name.O)
			continue
		}
		rest = append(rest, tn)
	}
	if len(missing) > 0 && !x.IfExists {
		return nil, nil, sqlerr.New(sqlerr.ErBadTable, "Unknown table '%s'", strings.Join(missing, ","))
	}
	res = &exec.Result{}
	if len(missing) > 0 {
		// one note naming them all, as MariaDB's
		res.Warnings = 1
		res.Notes = []exec.Note{{Level: "Note", Code: sqlerr.ErBadTable, Message: fmt.Sprintf("Unknown table '%s'", strings.Join(missing, ","))}}
	}
	return rest, res, nil
}
