package ddl

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
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
				err = checkStoredCharset(o.Value, "")
			case ast.DatabaseOptionCollate:
				err = checkStoredCharset("", o.Value)
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
		return alterAgain(ctx, s, txns, pc, x)
	case *ast.RenameTableStmt:
		return renameStmt(ctx, s, txns, pc, x)
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
			err := txns.LogDDL(ctx, rec, func() error { txn.ApplyDDL(cat, rec); triggersFollow(pc, rec); return nil })
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
		return &exec.Result{}, txns.LogDDL(ctx, rec, func() error { txn.ApplyDDL(cat, rec); return nil })
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
	} else if def, autoStart, err = buildTableDef(db, x); err == nil {
		err = buildChecks(def, x, s.Functions())
		if err == nil {
			err = s.StoreTimestampDefaults(def)
		}
	}
	if err != nil {
		return nil, err
	}
	if err := substituteEngine(s, def); err != nil {
		return nil, err
	}
	if err := checkForeignKeys(cat, def, s.ForeignKeyChecks()); err != nil {
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
	} else if def, autoStart, err = buildTableDef(db, x); err == nil {
		err = buildChecks(def, x, s.Functions())
		if err == nil {
			err = s.StoreTimestampDefaults(def)
		}
	}
	if err != nil {
		return nil, err
	}
	def.Temporary = true
	if err := substituteEngine(s, def); err != nil {
		return nil, err
	}
	if err := checkForeignKeys(cat, def, s.ForeignKeyChecks()); err != nil {
		return nil, err
	}
	def.ID = cat.AllocTableID()
	return createTemporary(s, def, autoStart, x.IfNotExists)
}

// buildTableDef translates CREATE TABLE into a TableDef.
func buildTableDef(db string, x *ast.CreateTableStmt) (*storage.TableDef, uint64, error) {
	return buildTableDefWith(db, x, nil)
}

// buildTableDefWith is buildTableDef with the columns of CREATE TABLE ...
// SELECT: after the explicit ones, those of selected whose names they do
// not have (an explicit column of the same name is the one kept), so the
// statement's keys may name either.
func buildTableDefWith(db string, x *ast.CreateTableStmt, selected []storage.Column) (*storage.TableDef, uint64, error) {
	def := &storage.TableDef{DB: db, Name: x.Table.Name.O, Engine: "InnoDB", Charset: "utf8mb4", Collate: "utf8mb4_general_ci", TimestampZone: storage.TimestampsUTC}
	var pk *storage.IndexDef
	var others []storage.IndexDef
	var autoStart uint64
	names := map[string]bool{}
	addIndex := func(name string, cols []*ast.IndexPartSpecification, primary, unique bool) error {
		ix := storage.IndexDef{Name: name, Primary: primary, Unique: unique || primary}
		for _, k := range cols {
			if k.Column == nil {
				return sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support expression indexes")
			}
			c := def.ColumnIndex(k.Column.Name.O)
			if c < 0 {
				return sqlerr.New(sqlerr.ErKeyColumnDoesNotExit, "Key column '%s' doesn't exist in table", k.Column.Name.O)
			}
			ix.Cols = append(ix.Cols, c)
		}
		if primary {
			if pk != nil {
				return sqlerr.New(sqlerr.ErMultiplePriKey, "Multiple primary key defined")
			}
			ix.Name = "PRIMARY"
			for _, c := range ix.Cols {
				def.Columns[c].NotNull = true
			}
			pk = &ix
			return nil
		}
		if ix.Name == "" {
			ix.Name = def.Columns[ix.Cols[0]].Name
			for i := 2; names[strings.ToLower(ix.Name)]; i++ {
				ix.Name = fmt.Sprintf("%s_%d", def.Columns[ix.Cols[0]].Name, i)
			}
		}
		if names[strings.ToLower(ix.Name)] {
			return sqlerr.New(sqlerr.ErDupKeyName, "Duplicate key name '%s'", ix.Name)
		}
		names[strings.ToLower(ix.Name)] = true
		others = append(others, ix)
		return nil
	}
	for _, cd := range x.Cols {
		if def.ColumnIndex(cd.Name.Name.O) >= 0 {
			return nil, 0, sqlerr.New(sqlerr.ErDupFieldName, "Duplicate column name '%s'", cd.Name.Name.O)
		}
		ct, err := parse.ColType(cd)
		if err != nil {
			return nil, 0, err
		}
		def.Columns = append(def.Columns, storage.Column{Name: cd.Name.Name.O, Type: ct})
	}
	if selected != nil {
		// MariaDB's order: the explicit columns the SELECT does not name,
		// then the SELECT's, each in its explicit definition if it has one.
		var cols []storage.Column
		named := map[string]bool{}
		for _, c := range selected {
			named[strings.ToLower(c.Name)] = true
		}
		for _, c := range def.Columns {
			if !named[strings.ToLower(c.Name)] {
				cols = append(cols, c)
			}
		}
		for _, c := range selected {
			if i := def.ColumnIndex(c.Name); i >= 0 {
				c = def.Columns[i]
			}
			cols = append(cols, c)
		}
		def.Columns = cols
	}
	for _, cd := range x.Cols {
		// by name: CREATE TABLE ... SELECT may have reordered the columns
		col := &def.Columns[def.ColumnIndex(cd.Name.Name.O)]
		if err := checkColumnCharset(cd, col.Type.JSON); err != nil {
			return nil, 0, err
		}
		for _, o := range cd.Options {
			switch o.Tp {
			case ast.ColumnOptionNotNull:
				col.NotNull = true
			case ast.ColumnOptionNull:
				col.NotNull = false
			case ast.ColumnOptionAutoIncrement:
				if !col.Type.IsInteger() {
					return nil, 0, sqlerr.New(sqlerr.ErWrongFieldSpec, "Incorrect column specifier for column '%s'", col.Name)
				}
				col.AutoIncrement = true
			case ast.ColumnOptionPrimaryKey:
				if err := addIndex("PRIMARY", []*ast.IndexPartSpecification{{Column: cd.Name}}, true, true); err != nil {
					return nil, 0, err
				}
			case ast.ColumnOptionUniqKey:
				if err := addIndex("", []*ast.IndexPartSpecification{{Column: cd.Name}}, false, true); err != nil {
					return nil, 0, err
				}
			case ast.ColumnOptionDefaultValue:
				if err := setDefault(col, o.Expr); err != nil {
					return nil, 0, err
				}
			case ast.ColumnOptionOnUpdate:
				col.OnUpdateNow = true
			case ast.ColumnOptionComment:
				col.Comment = expr.RestoreString(o.Expr)
			}
		}
		if err := nowDigits(col, cd); err != nil {
			return nil, 0, err
		}
	}
	for _, c := range x.Constraints {
		switch c.Tp {
		case ast.ConstraintPrimaryKey:
			if err := addIndex("PRIMARY", c.Keys, true, true); err != nil {
				return nil, 0, err
			}
		case ast.ConstraintUniq, ast.ConstraintUniqKey, ast.ConstraintUniqIndex:
			if err := addIndex(c.Name, c.Keys, false, true); err != nil {
				return nil, 0, err
			}
		case ast.ConstraintKey, ast.ConstraintIndex:
			if err := addIndex(c.Name, c.Keys, false, false); err != nil {
				return nil, 0, err
			}
		case ast.ConstraintFulltext:
			// accepted and not enforced, as MyISAM-era dumps expect
		}
	}
	if pk != nil {
		def.Indexes = append([]storage.IndexDef{*pk}, others...)
	} else {
		def.Indexes = others
	}
	sortIndexes(def)
	if err := buildForeignKeys(def, x); err != nil {
		return nil, 0, err
	}
	auto := def.AutoIncColumn()
	if auto >= 0 {
		keyed := false
		for _, ix := range def.Indexes {
			if len(ix.Cols) > 0 && ix.Cols[0] == auto {
				keyed = true
			}
		}
		if !keyed {
			return nil, 0, sqlerr.New(sqlerr.ErWrongAutoKey, "Incorrect table definition; there can be only one auto column and it must be defined as a key")
		}
	}
	for _, o := range x.Options {
		switch o.Tp {
		case ast.TableOptionEngine:
			if o.StrValue != "" {
				def.Engine = o.StrValue
			}
		case ast.TableOptionCharset:
			if err := checkStoredCharset(o.StrValue, ""); err != nil {
				return nil, 0, err
			}
			def.Charset = strings.ToLower(o.StrValue)
		case ast.TableOptionCollate:
			if err := checkStoredCharset("", o.StrValue); err != nil {
				return nil, 0, err
			}
			def.Collate = strings.ToLower(o.StrValue)
		case ast.TableOptionComment:
			def.Comment = o.StrValue
		case ast.TableOptionAutoIncrement:
			autoStart = o.UintValue
		}
	}
	return def, autoStart, nil
}

func setDefault(col *storage.Column, e ast.ExprNode) error {
	if f, ok := e.(*ast.FuncCallExpr); ok {
		switch f.FnName.L {
		case "current_timestamp", "now", "localtime", "localtimestamp":
			col.DefaultNow = true
			col.HasDefault = true
			return nil
		}
	}
	sc := &expr.Scope{}
	ce, err := sc.Compile(e)
	if err != nil || !ce.IsConst {
		return sqlerr.New(sqlerr.ErInvalidDefault, "Invalid default value for '%s'", col.Name)
	}
	v, err := ce.Fn(&expr.Ctx{})
	if err != nil {
		return sqlerr.New(sqlerr.ErInvalidDefault, "Invalid default value for '%s'", col.Name)
	}
	if !v.IsNull() {
		if v, err = types.Coerce(v, col.Type); err != nil {
			return sqlerr.New(sqlerr.ErInvalidDefault, "Invalid default value for '%s'", col.Name)
		}
	} else if col.NotNull {
		return sqlerr.New(sqlerr.ErInvalidDefault, "Invalid default value for '%s'", col.Name)
	}
	col.HasDefault, col.Default = true, v
	return nil
}

// substituteEngine is NO_ENGINE_SUBSTITUTION: plrun's one engine is
// InnoDB (SHOW ENGINES), so ENGINE=MyISAM (or any other) is error 1286
// under the flag, and without it the table is InnoDB with warnings 1286
// and 1266, as MariaDB does for an engine it does not have. Never a table
// that claims an engine it is not.
func substituteEngine(s *exec.State, def *storage.TableDef) error {
	if strings.EqualFold(def.Engine, "InnoDB") {
		def.Engine = "InnoDB"
		return nil
	}
	if s.SQLMode()&sysvar.ModeNoEngineSubst != 0 {
		return sqlerr.New(sqlerr.ErUnknownStorageEngine, "Unknown storage engine '%s'", def.Engine)
	}
	s.Warn(sqlerr.ErUnknownStorageEngine, "Unknown storage engine '%s'", def.Engine)
	s.Warn(sqlerr.WarnUsingOtherHandler, "Using storage engine InnoDB for table '%s'", def.Name)
	def.Engine = "InnoDB"
	return nil
}

// alterAgain runs an ALTER TABLE, CREATE INDEX or DROP INDEX, and runs it
// again (against the new table) when another schema change replaced the
// table while it was being rebuilt, as the second of two ALTERs waits
// for the first's metadata lock in MySQL and then alters its result.
func alterAgain(ctx context.Context, s *exec.State, txns *txn.Manager, pc *procs.Catalog, n ast.StmtNode) (*exec.Result, error) {
	for try := 0; ; try++ {
		mark := s.StmtWarnings
		notes := len(s.StmtNotes)
		var res *exec.Result
		var err error
		switch x := n.(type) {
		case *ast.AlterTableStmt:
			res, err = alterTable(ctx, s, txns, pc, x)
		case *ast.CreateIndexStmt:
			res, err = createIndex(ctx, s, txns, x)
		case *ast.DropIndexStmt:
			res, err = dropIndex(ctx, s, txns, x)
		}
		if !errors.Is(err, txn.ErrTableChanged) || try == 10 {
			return res, err
		}
		s.StmtWarnings, s.StmtNotes = mark, s.StmtNotes[:notes] // the next try reports its own
	}
}
