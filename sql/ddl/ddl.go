package ddl

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sql/ddl/alter"
	"github.com/plrun/plrun/sql/ddl/tabledef"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/txn"
)

// Exec runs CREATE/DROP DATABASE, CREATE/DROP TABLE, TRUNCATE TABLE,
// ALTER TABLE, CREATE/DROP INDEX and RENAME TABLE for the session s: each one log record, applied as replay applies
// it (Apply). Plans built for the old schema are dropped after it.
func Exec(ctx context.Context, s *exec.State, txns *txn.Manager, pc *procs.Catalog, n ast.StmtNode) (*exec.Result, error) {
	cat := txns.Catalog()
	if err := refuseVirtual(s, n); err != nil {
		return nil, err
	}
	defer s.SchemaChanged()
	switch x := n.(type) {
	case *ast.CreateDatabaseStmt:
		for _, o := range x.Options {
			var err error
			switch o.Tp {
			case ast.DatabaseOptionCharset:
				err = tabledef.CheckStoredCharset(o.Value, "")
			case ast.DatabaseOptionCollate:
				err = tabledef.CheckStoredCharset("", o.Value)
			}
			if err != nil {
				return nil, err
			}
		}
		if cat.HasDatabase(x.Name.O) {
			if x.IfNotExists {
				return exec.Noted("Note", sqlerr.ErDBCreateExists, "Can't create database '%s'; database exists", x.Name.O), nil
			}
			return nil, sqlerr.New(sqlerr.ErDBCreateExists, "Can't create database '%s'; database exists", x.Name.O)
		}
		err := txns.LogDDL(ctx, &txn.DDLRecord{Op: "create_db", DB: x.Name.O}, func() error {
			cat.CreateDatabase(x.Name.O)
			return nil
		})
		return &exec.Result{AffectedRows: 1}, err
	case *ast.DropDatabaseStmt:
		if !cat.HasDatabase(x.Name.O) {
			if x.IfExists {
				return exec.Noted("Note", sqlerr.ErDBDropExists, "Can't drop database '%s'; database doesn't exist", x.Name.O), nil
			}
			return nil, sqlerr.New(sqlerr.ErDBDropExists, "Can't drop database '%s'; database doesn't exist", x.Name.O)
		}
		if err := refuseDropDatabase(s, cat, x.Name.O); err != nil {
			return nil, err
		}
		n := len(cat.Tables(x.Name.O)) + len(cat.Views(x.Name.O)) // MariaDB counts both
		err := txns.LogDDL(ctx, &txn.DDLRecord{Op: "drop_db", DB: x.Name.O}, func() error {
			Apply(cat, pc, &txn.DDLRecord{Op: "drop_db", DB: x.Name.O})
			return nil
		})
		if strings.EqualFold(s.DB, x.Name.O) {
			s.DB = ""
		}
		return &exec.Result{AffectedRows: uint64(n)}, err
	case *ast.CreateTableStmt:
		return createTable(ctx, s, txns, x)
	case *ast.AlterTableStmt, *ast.CreateIndexStmt, *ast.DropIndexStmt:
		return alter.Exec(ctx, s, txns, pc, x)
	case *ast.RenameTableStmt:
		return alter.Exec(ctx, s, txns, pc, x)
	case *ast.DropTableStmt:
		if x.IsView {
			return dropViews(ctx, s, txns, x)
		}
		tables, tempRes, err := dropTemporary(s, x)
		if err != nil || len(tables) == 0 {
			return tempRes, err
		}
		var missing, views []string
		for _, tn := range tables {
			db, err := s.DBFor(tn.Schema.O)
			if err != nil {
				return nil, err
			}
			if cat.View(db, tn.Name.O) != nil && cat.Table(db, tn.Name.O) == nil {
				// A view is not dropped by DROP TABLE: an error, or with
				// IF EXISTS a note, as MariaDB.
				if !x.IfExists {
					return nil, sqlerr.New(sqlerr.ErIsView, "'%s.%s' is a view", db, tn.Name.O)
				}
				views = append(views, db+"."+tn.Name.O)
				continue
			}
			if cat.Table(db, tn.Name.O) == nil {
				missing = append(missing, db+"."+tn.Name.O)
			}
		}
		if len(missing) > 0 && !x.IfExists {
			return nil, sqlerr.New(sqlerr.ErBadTable, "Unknown table '%s'", strings.Join(missing, ","))
		}
		// One record for the whole statement: a crash leaves all of the
		// tables or none of them.
		rec := &txn.DDLRecord{Op: "drop_tables"}
		for _, tn := range tables {
			db, _ := s.DBFor(tn.Schema.O) // checked in the loop above
			if cat.Table(db, tn.Name.O) != nil {
				rec.Tables = append(rec.Tables, storage.TableRef{DB: db, Name: tn.Name.O})
			}
		}
		var refused error
		rec.Tables, refused = dropReferenced(s, cat, rec.Tables)
		if len(rec.Tables) > 0 {
			err := txns.LogDDL(ctx, rec, func() error {
				if err := txn.ApplyDDL(cat, rec); err != nil {
					return err
				}
				alter.TriggersFollow(pc, rec)
				return nil
			})
			if err != nil {
				return nil, err
			}
		}
		if refused != nil {
			return nil, refused
		}
		res := &exec.Result{Warnings: uint16(len(missing) + len(views))}
		for _, v := range views {
			res.Notes = append(res.Notes, exec.Note{Level: "Note", Code: sqlerr.ErIsView, Message: fmt.Sprintf("'%s' is a view", v)})
		}
		for _, m := range missing {
			res.Notes = append(res.Notes, exec.Note{Level: "Note", Code: sqlerr.ErBadTable, Message: fmt.Sprintf("Unknown table '%s'", m)})
		}
		return res, nil
	case *ast.TruncateTableStmt:
		t, err := s.ResolveTarget(x.Table)
		if err != nil {
			return nil, err
		}
		if t.Def.Temporary {
			def := *t.Def
			def.ID = cat.AllocTableID()
			s.ReplaceTempTable(&def)
			return &exec.Result{}, nil
		}
		if err := refuseTruncateReferenced(s, cat, t); err != nil {
			return nil, err
		}
		def := *t.Def
		def.ID = cat.AllocTableID()
		def.Created = time.Now().Unix() // TRUNCATE makes a new table, as InnoDB's
		// One record, one catalog step: readers and recovery see the old
		// table or the new empty one, never no table.
		rec := &txn.DDLRecord{Op: "truncate_table", DB: def.DB, Name: def.Name, Def: &def}
		return &exec.Result{}, txns.LogDDL(ctx, rec, func() error { return txn.ApplyDDL(cat, rec) })
	}
	return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support this DDL")
}

func createTable(ctx context.Context, s *exec.State, txns *txn.Manager, x *ast.CreateTableStmt) (*exec.Result, error) {
	cat := txns.Catalog()
	temporary := x.TemporaryKeyword == ast.TemporaryLocal
	if x.TemporaryKeyword == ast.TemporaryGlobal {
		return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support CREATE GLOBAL TEMPORARY TABLE")
	}
	if x.Select != nil {
		// run by CreateSelect, in a transaction (the session's)
		return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support CREATE TABLE ... SELECT here")
	}
	db, err := s.DBFor(x.Table.Schema.O)
	if err != nil {
		return nil, err
	}
	if temporary {
		// MariaDB creates a temporary table even in a database that does
		// not exist.
		return createTempTable(s, cat, cat.DatabaseName(db), x)
	}
	if !cat.HasDatabase(db) {
		return nil, sqlerr.New(sqlerr.ErBadDB, "Unknown database '%s'", db)
	}
	db = cat.DatabaseName(db)
	if cat.Table(db, x.Table.Name.O) != nil || cat.View(db, x.Table.Name.O) != nil {
		if x.IfNotExists {
			return exec.Noted("Note", sqlerr.ErTableExists, "Table '%s' already exists", x.Table.Name.O), nil
		}
		return nil, sqlerr.New(sqlerr.ErTableExists, "Table '%s' already exists", x.Table.Name.O)
	}
	var def *storage.TableDef
	var autoStart uint64
	if x.ReferTable != nil {
		def, err = likeDef(s, cat, db, x)
		if err == nil {
			def.Temporary = false
		}
	} else if def, autoStart, err = tabledef.BuildTableDef(db, x); err == nil {
		err = tabledef.BuildChecks(def, x, s.Functions())
		if err == nil {
			err = s.StoreTimestampDefaults(def)
		}
	}
	if err != nil {
		return nil, err
	}
	if err := tabledef.SubstituteEngine(s, def); err != nil {
		return nil, err
	}
	if err := tabledef.CheckForeignKeys(cat, def, s.ForeignKeyChecks()); err != nil {
		return nil, err
	}
	def.ID = cat.AllocTableID()
	def.Created = time.Now().Unix()
	err = txns.LogDDL(ctx, &txn.DDLRecord{Op: "create_table", DB: db, Name: def.Name, Def: def}, func() error {
		t, ok := cat.AddTable(def)
		if !ok {
			return sqlerr.New(sqlerr.ErTableExists, "Table '%s' already exists", def.Name)
		}
		if autoStart > 1 {
			t.SetAutoInc(autoStart - 1)
		}
		return nil
	})
	return &exec.Result{}, err
}

// createTempTable is CREATE TEMPORARY TABLE [... LIKE]: the same
// definition rules as a table's, then the session's own table.
func createTempTable(s *exec.State, cat *storage.Catalog, db string, x *ast.CreateTableStmt) (*exec.Result, error) {
	var def *storage.TableDef
	var autoStart uint64
	var err error
	if x.ReferTable != nil {
		def, err = likeDef(s, cat, db, x)
	} else if def, autoStart, err = tabledef.BuildTableDef(db, x); err == nil {
		err = tabledef.BuildChecks(def, x, s.Functions())
		if err == nil {
			err = s.StoreTimestampDefaults(def)
		}
	}
	if err != nil {
		return nil, err
	}
	def.Temporary = true
	if err := tabledef.SubstituteEngine(s, def); err != nil {
		return nil, err
	}
	if err := tabledef.CheckForeignKeys(cat, def, s.ForeignKeyChecks()); err != nil {
		return nil, err
	}
	def.ID = cat.AllocTableID()
	return createTemporary(s, def, autoStart, x.IfNotExists)
}
