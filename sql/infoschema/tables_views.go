package infoschema

import (
	"strings"

	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
)

// VIEWS, and the views' rows of COLUMNS.

func init() {
	register(&table{name: "VIEWS", cols: []column{
		{"TABLE_CATALOG", varchar(512), true}, {"TABLE_SCHEMA", varchar(64), true}, {"TABLE_NAME", varchar(64), true},
		{"VIEW_DEFINITION", longtext, true}, {"CHECK_OPTION", varchar(8), true}, {"IS_UPDATABLE", varchar(3), true},
		{"DEFINER", varchar(384), true}, {"SECURITY_TYPE", varchar(7), true}, {"CHARACTER_SET_CLIENT", varchar(32), true},
		{"COLLATION_CONNECTION", varchar(64), true}, {"ALGORITHM", varchar(10), true},
	}, rows: viewsRows, schemaCol: "TABLE_SCHEMA", nameCol: "TABLE_NAME"})
}

// eachView calls fn for every view of the catalog f keeps.
func eachView(cat *storage.Catalog, f filter, fn func(v *storage.ViewDef)) {
	for _, db := range cat.Databases() {
		if !f.keeps(db, "") {
			continue
		}
		for _, v := range cat.Views(db) {
			if f.keeps(db, v.Name) {
				fn(v)
			}
		}
	}
}

func viewsRows(src Source, f filter) [][]types.Value {
	var out [][]types.Value
	eachView(src.Catalog(), f, func(v *storage.ViewDef) {
		// MariaDB opens the view to tell whether it is updatable: one
		// whose tables are gone is neither, with its 1356 as a warning.
		// It is updatable when plrun can write through it and one of
		// its columns at least is a base column.
		updatable := "NO"
		if _, direct, err := viewColumns(src, v); err != nil {
			updatable = ""
		} else if v.Updatable && direct {
			updatable = "YES"
		}
		out = append(out, []types.Value{str("def"), str(v.DB), str(v.Name), str(src.ViewDefinition(v)), str(v.CheckOption),
			str(updatable), str(strings.ReplaceAll(v.Definer, "`", "")), str(v.Security), str(v.Charset),
			str(v.Collation), str(v.Algorithm)})
	})
	return out
}

// viewColumns are v's columns; a view that cannot be opened adds its
// error as a warning, as MariaDB does, and has none.
func viewColumns(src Source, v *storage.ViewDef) ([]storage.Column, bool, error) {
	cols, direct, err := src.ViewColumns(v)
	if err != nil {
		code := sqlerr.ErViewInvalid
		msg := err.Error()
		if e, ok := sqlerr.As(err); ok {
			code, msg = e.Code, e.Message
		}
		src.Warn(code, msg)
	}
	return cols, direct, err
}

// viewColumnRows appends the COLUMNS rows of the views f keeps: a view
// column has no key, no extra and no comment, and its charset is the
// database's.
func viewColumnRows(out [][]types.Value, src Source, f filter) [][]types.Value {
	eachView(src.Catalog(), f, func(v *storage.ViewDef) {
		cols, _, err := viewColumns(src, v)
		if err != nil {
			return
		}
		charset, collation := SchemaCharset(v.DB)
		def := &storage.TableDef{DB: v.DB, Name: v.Name, Columns: cols, Charset: charset, Collate: collation}
		out = columnRowsOf(out, def)
	})
	return out
}
