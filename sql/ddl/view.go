package ddl

import (
	"context"
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/txn"
)

// CreateView is CREATE [OR REPLACE] [ALGORITHM=...] [DEFINER=...] [SQL
// SECURITY ...] VIEW v [(cols)] AS SELECT ... [WITH [CASCADED | LOCAL]
// CHECK OPTION]; check is the check option the parser's pre-scan read
// (NONE, CASCADED or LOCAL). The SELECT is planned now (its errors are
// CREATE VIEW's) and stored as MariaDB prints it; the view is one
// create_view record. alter is ALTER VIEW: the view must exist (1146).
func CreateView(ctx context.Context, s *exec.State, txns *txn.Manager, x *ast.CreateViewStmt, check string, alter bool) (*exec.Result, error) {
	defer s.SchemaChanged()
	cat := txns.Catalog()
	db, err := s.DBFor(x.ViewName.Schema.O)
	if err != nil {
		return nil, err
	}
	if !cat.HasDatabase(db) {
		return nil, sqlerr.New(sqlerr.ErBadDB, "Unknown database '%s'", db)
	}
	db = cat.DatabaseName(db)
	name := x.ViewName.Name.O
	if alter && cat.View(db, name) == nil {
		if cat.Table(db, name) != nil {
			return nil, sqlerr.New(sqlerr.ErNotView, "'%s.%s' is not of type 'VIEW'", db, name)
		}
		return nil, sqlerr.New(sqlerr.ErNoSuchTable, "Table '%s.%s' doesn't exist", db, name)
	}
	if cat.Table(db, name) != nil || (cat.View(db, name) != nil && !x.OrReplace) {
		return nil, sqlerr.New(sqlerr.ErTableExists, "Table '%s' already exists", name)
	}
	var names []string
	for _, c := range x.Cols {
		names = append(names, c.O)
	}
	vd, err := s.DefineView(db, x.Select, names)
	if err != nil {
		return nil, err
	}
	if check == "" {
		check = "NONE"
	}
	if check != "NONE" && !vd.Updatable {
		return nil, sqlerr.New(sqlerr.ErViewNonUpdCheck, "CHECK OPTION on non-updatable view `%s`.`%s`", db, name)
	}
	def := &storage.ViewDef{DB: db, Name: name, Columns: vd.Columns, Select: vd.Text,
		Algorithm: viewAlgorithm(x.Algorithm), Definer: definer(x), Security: "DEFINER", CheckOption: check,
		Updatable: vd.Updatable, Charset: s.SysVarText("character_set_client"), Collation: s.SysVarText("collation_connection")}
	if x.Security == ast.SecurityInvoker {
		def.Security = "INVOKER"
	}
	rec := &txn.DDLRecord{Op: "create_view", DB: db, Name: name, View: def}
	return &exec.Result{}, txns.LogDDL(ctx, rec, func() error {
		if !cat.PutView(def) {
			return sqlerr.New(sqlerr.ErTableExists, "Table '%s' already exists", name)
		}
		return nil
	})
}

func viewAlgorithm(a ast.ViewAlgorithm) string {
	switch a {
	case ast.AlgorithmMerge:
		return "MERGE"
	case ast.AlgorithmTemptable:
		return "TEMPTABLE"
	}
	return "UNDEFINED"
}

// definer is DEFINER= as MariaDB prints it; plrun's one user is root.
func definer(x *ast.CreateViewStmt) string {
	if d := x.Definer; d != nil && !d.CurrentUser && d.Username != "" {
		return fmt.Sprintf("`%s`@`%s`", d.Username, d.Hostname)
	}
	return "`root`@`localhost`"
}

// dropViews is DROP VIEW [IF EXISTS] v, ...: one drop_views record for
// the views that exist; 4092 names the others (a note with IF EXISTS).
func dropViews(ctx context.Context, s *exec.State, txns *txn.Manager, x *ast.DropTableStmt) (*exec.Result, error) {
	cat := txns.Catalog()
	rec := &txn.DDLRecord{Op: "drop_views"}
	var missing []string
	for _, tn := range x.Tables {
		db, err := s.DBFor(tn.Schema.O)
		if err != nil {
			return nil, err
		}
		if cat.View(db, tn.Name.O) == nil {
			missing = append(missing, db+"."+tn.Name.O)
			continue
		}
		rec.Tables = append(rec.Tables, storage.TableRef{DB: db, Name: tn.Name.O})
	}
	if len(missing) > 0 && !x.IfExists {
		return nil, sqlerr.New(sqlerr.ErUnknownView, "Unknown VIEW: '%s'", strings.Join(missing, ","))
	}
	if len(rec.Tables) > 0 {
		if err := txns.LogDDL(ctx, rec, func() error { return txn.ApplyDDL(cat, rec) }); err != nil {
			return nil, err
		}
	}
	res := &exec.Result{Warnings: uint16(len(missing))}
	for _, m := range missing {
		res.Notes = append(res.Notes, exec.Note{Level: "Note", Code: sqlerr.ErUnknownView, Message: fmt.Sprintf("Unknown VIEW: '%s'", m)})
	}
	return res, nil
}

// Views lists the views of a database for information_schema.VIEWS and
// SHOW: db, name, definition, check option, updatable, definer, security
// (storage.ViewDef).
func Views(cat *storage.Catalog, db string) []*storage.ViewDef { return cat.Views(db) }
