package view

import (
	"errors"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/compose"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sql/query"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
)

// maxViewDepth bounds views over views (and catches a view that, after
// CREATE OR REPLACE, reads itself).
const maxViewDepth = 32

// Definition is a view's SELECT as planned for CREATE VIEW.
type Definition struct {
	Columns   []string
	Text      string
	Updatable bool
}

// Define plans sel as a view's SELECT in database db (its tables
// resolve there), with the view's column names (names, if the CREATE
// VIEW listed them: 1353 if their count differs).
func Define(s Host, db string, sel ast.StmtNode, names []string) (*Definition, error) {
	rs, ok := sel.(ast.ResultSetNode)
	if !ok {
		return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support this view definition")
	}
	q, err := s.PlanView(db, rs, true)
	if err != nil {
		return nil, err
	}
	cols := q.Columns()
	if names != nil && len(names) != len(cols) {
		return nil, sqlerr.New(sqlerr.ErViewWrongList, "View's SELECT and view's field list have different column counts")
	}
	vd := &Definition{}
	for i, c := range cols {
		name := c.Name
		if names != nil {
			name = names[i]
		}
		for _, o := range vd.Columns {
			if strings.EqualFold(o, name) {
				return nil, sqlerr.New(sqlerr.ErDupFieldName, "Duplicate column name '%s'", name)
			}
		}
		vd.Columns = append(vd.Columns, name)
	}
	vd.Text = viewText(rs, q, vd.Columns)
	if sel, ok := q.(Select); ok {
		t := sel.Table()
		vd.Updatable = t != nil && s.Catalog().Table(t.Def.DB, t.Def.Name) == t && sel.Plain()
	}
	return vd, nil
}

// Source plans a FROM item naming view v, as alias, as a derived table:
// its placeholder and its query.
func Source(s Host, v *storage.ViewDef, alias string) (*storage.Table, query.Plan, error) {
	if s.ViewDepth() >= maxViewDepth {
		return nil, nil, sqlerr.New(sqlerr.ErViewRecursive, "`%s`.`%s` contains view recursion", v.DB, v.Name)
	}
	st, err := parse.ParseOne(v.Select)
	if err != nil {
		return nil, nil, err
	}
	rs, ok := st.(ast.ResultSetNode)
	if !ok {
		return nil, nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support this view definition")
	}
	q, err := s.PlanView(v.DB, rs, false)
	var se *sqlerr.Error
	if errors.As(err, &se) && (se.Code == sqlerr.ErNoSuchTable || se.Code == sqlerr.ErBadField || se.Code == sqlerr.ErBadDB || se.Code == sqlerr.ErSPDoesNotExist) {
		// A table or column the view names is gone.
		return nil, nil, sqlerr.New(sqlerr.ErViewInvalid, "View '%s.%s' references invalid table(s) or column(s) or function(s) or definer/invoker of view lack rights to use them", v.DB, v.Name)
	}
	if err != nil {
		return nil, nil, err
	}
	names := v.Columns
	if len(names) != len(q.Columns()) {
		names = nil // a view whose tables changed under it: their names
	}
	def, err := compose.PlaceholderDef(q.Columns(), names, alias)
	if err != nil {
		return nil, nil, err
	}
	def.DB = v.DB
	return storage.NewTable(def), q, nil
}

// Table is a table of view db.name's columns (no rows), for SHOW
// COLUMNS and DESCRIBE; nil if there is no such view.
func Table(s Host, tn *ast.TableName) (*storage.Table, error) {
	db, err := s.DBFor(tn.Schema.O)
	if err != nil {
		return nil, err
	}
	v := s.Catalog().View(db, tn.Name.O)
	if v == nil {
		return nil, nil
	}
	cols, _, err := Columns(s, v)
	if err != nil {
		return nil, err
	}
	// a view's columns are in its database's character set, with their
	// base columns' defaults (Columns), as MariaDB describes them
	def := &storage.TableDef{DB: v.DB, Name: v.Name, Columns: cols, Charset: "utf8mb4", Collate: "utf8mb4_general_ci"}
	return storage.NewTable(def), nil
}
