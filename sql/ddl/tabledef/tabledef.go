package tabledef

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
)

// BuildTableDef translates CREATE TABLE into a TableDef.
func BuildTableDef(db string, x *ast.CreateTableStmt) (*storage.TableDef, uint64, error) {
	return BuildTableDefWith(db, x, nil)
}

// BuildTableDefWith is BuildTableDef with the columns of CREATE TABLE ...
// SELECT: after the explicit ones, those of selected whose names they do
// not have (an explicit column of the same name is the one kept), so the
// statement's keys may name either.
func BuildTableDefWith(db string, x *ast.CreateTableStmt, selected []storage.Column) (*storage.TableDef, uint64, error) {
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
			prefix, err := KeyPrefix(&def.Columns[c], k.Length)
			if err != nil {
				return err
			}
			ix.Cols = append(ix.Cols, c)
			ix.Desc = append(ix.Desc, k.Desc)
			ix.Prefix = append(ix.Prefix, prefix)
		}
		// Kept only when one part says so, as ALTER's keys keep them.
		if !slices.Contains(ix.Desc, true) {
			ix.Desc = nil
		}
		if !slices.ContainsFunc(ix.Prefix, func(n int) bool { return n > 0 }) {
			ix.Prefix = nil
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
		if err := CheckColumnCharset(cd, col.Type.JSON); err != nil {
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
				if err := SetDefault(col, o.Expr); err != nil {
					return nil, 0, err
				}
			case ast.ColumnOptionOnUpdate:
				col.OnUpdateNow = true
			case ast.ColumnOptionComment:
				col.Comment = expr.RestoreString(o.Expr)
			}
		}
		if err := NowDigits(col, cd); err != nil {
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
	SortIndexes(def)
	if err := BuildForeignKeys(def, x); err != nil {
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
			if err := CheckStoredCharset(o.StrValue, ""); err != nil {
				return nil, 0, err
			}
			def.Charset = strings.ToLower(o.StrValue)
		case ast.TableOptionCollate:
			if err := CheckStoredCharset("", o.StrValue); err != nil {
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

func SetDefault(col *storage.Column, e ast.ExprNode) error {
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

// SubstituteEngine is NO_ENGINE_SUBSTITUTION: plrun's one engine is
// InnoDB (SHOW ENGINES), so ENGINE=MyISAM (or any other) is error 1286
// under the flag, and without it the table is InnoDB with warnings 1286
// and 1266, as MariaDB does for an engine it does not have. Never a table
// that claims an engine it is not.
func SubstituteEngine(s *exec.State, def *storage.TableDef) error {
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

// SortIndexes orders a new table's keys as MariaDB keeps them (see
// sortedKeys): CREATE TABLE lists them so too.
func SortIndexes(def *storage.TableDef) {
	rank := func(ix *storage.IndexDef) int {
		switch {
		case ix.Primary:
			return 0
		case ix.Unique:
			for _, c := range ix.Cols {
				if !def.Columns[c].NotNull {
					return 2
				}
			}
			return 1
		}
		return 3
	}
	sorted := make([]storage.IndexDef, 0, len(def.Indexes))
	for r := 0; r <= 3; r++ {
		for i := range def.Indexes {
			if rank(&def.Indexes[i]) == r {
				sorted = append(sorted, def.Indexes[i])
			}
		}
	}
	def.Indexes = sorted
}
