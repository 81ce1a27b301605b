package view

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sql/plan"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
)

// Writing through a view: the view resolved to its base table, and what
// a written row must satisfy.

// Target is an updatable view a statement writes through (or a view
// merged into a query's FROM).
type Target struct {
	Def   *storage.ViewDef
	Base  *storage.Table
	Alias string // the base table's alias in the view's SELECT
	Cols  *expr.ViewColumns
	Where ast.ExprNode // the view's WHERE, over the base table
}

// Resolve resolves the table an INSERT, UPDATE or DELETE names: a
// table, or an updatable view over one (1288, 1471 otherwise).
func Resolve(s Host, tn *ast.TableName, alias, verb string) (*storage.Table, *Target, error) {
	if db, err := s.DBFor(tn.Schema.O); err == nil && s.IsVirtual(db) {
		return nil, nil, s.AccessDenied(db) // the virtual schemas are read-only (1044)
	}
	t, err := s.ResolveTable(tn)
	if err == nil {
		return t, nil, nil
	}
	db, dberr := s.DBFor(tn.Schema.O)
	if dberr != nil {
		return nil, nil, err
	}
	v := s.Catalog().View(db, tn.Name.O)
	if v == nil {
		return nil, nil, err
	}
	notUpdatable := func() error {
		if verb == "INSERT" {
			return sqlerr.New(sqlerr.ErNonInsertableTable, "The target table %s of the INSERT is not insertable-into", tn.Name.O)
		}
		return sqlerr.New(sqlerr.ErNonUpdatableTable, "The target table %s of the %s is not updatable", tn.Name.O, verb)
	}
	if !v.Updatable || strings.EqualFold(v.Algorithm, "TEMPTABLE") {
		return nil, nil, notUpdatable()
	}
	st, err := parse.ParseOne(v.Select)
	if err != nil {
		return nil, nil, err
	}
	sel, ok := st.(*ast.SelectStmt)
	ts := plan.SingleSource(sel.From)
	if !ok || ts == nil {
		return nil, nil, notUpdatable()
	}
	btn, ok := ts.Source.(*ast.TableName)
	if !ok {
		return nil, nil, notUpdatable()
	}
	if btn.Schema.L == "" {
		// the base table is in the view's database
		named := *btn
		named.Schema = ast.NewCIStr(v.DB)
		btn = &named
	}
	base, err := s.ResolveTable(btn)
	if err != nil {
		return nil, nil, notUpdatable() // a view over a view
	}
	vt := &Target{Def: v, Base: base, Alias: base.Def.Name, Where: sel.Where}
	if ts.AsName.O != "" {
		vt.Alias = ts.AsName.O
	}
	if alias == "" {
		alias = tn.Name.O
	}
	vt.Cols = &expr.ViewColumns{Name: alias, Cols: map[string]*expr.Expr{}}
	sc := &expr.Scope{DB: v.DB, Funcs: s.Functions(), Table: base, Alias: vt.Alias, Sub: s}
	var exprs []*expr.Expr
	for _, f := range sel.Fields.Fields {
		if f.WildCard != nil {
			for i := range base.Def.Columns {
				exprs = append(exprs, expr.ColumnExpr(base.Def, i, i, nil))
			}
			continue
		}
		e, err := sc.Compile(f.Expr)
		if err != nil {
			return nil, nil, err
		}
		exprs = append(exprs, e)
	}
	if len(exprs) != len(v.Columns) {
		return nil, nil, notUpdatable()
	}
	for i, name := range v.Columns {
		vt.Cols.Cols[strings.ToLower(name)] = exprs[i]
	}
	return base, vt, nil
}

// Column is the base column a view column written to is (1348 for an
// expression, 1054 for no such column).
func (vt *Target) Column(cn *ast.ColumnName, clause string) (int, error) {
	e := vt.Cols.Cols[strings.ToLower(cn.Name.O)]
	if e == nil || (cn.Table.L != "" && !strings.EqualFold(cn.Table.O, vt.Cols.Name)) {
		return -1, sqlerr.New(sqlerr.ErBadField, "Unknown column '%s' in '%s'", expr.Qualified(cn), clause)
	}
	if e.Col < 0 {
		return -1, sqlerr.New(sqlerr.ErNonUpdatableColumn, "Column '%s' is not updatable", cn.Name.O)
	}
	return e.Col, nil
}

// And is the statement's WHERE with the view's.
func (vt *Target) And(where ast.ExprNode) ast.ExprNode {
	switch {
	case vt.Where == nil:
		return where
	case where == nil:
		return vt.Where
	}
	return &ast.BinaryOperationExpr{Op: opcode.LogicAnd, L: &ast.ParenthesesExpr{Expr: where}, R: &ast.ParenthesesExpr{Expr: vt.Where}}
}

// CheckOption compiles WITH CHECK OPTION's condition over the base row
// (nil without one, or for no view).
func CheckOption(s Host, vt *Target) (*expr.Expr, error) {
	if vt == nil || vt.Where == nil || vt.Def.CheckOption == "" || vt.Def.CheckOption == "NONE" {
		return nil, nil
	}
	sc := &expr.Scope{DB: vt.Def.DB, Funcs: s.Functions(), Table: vt.Base, Alias: vt.Alias, Sub: s}
	return sc.Compile(vt.Where)
}

// CheckFailed is 1369 for view vt.
func (vt *Target) CheckFailed() error {
	return sqlerr.New(sqlerr.ErViewCheckFailed, "CHECK OPTION failed `%s`.`%s`", vt.Def.DB, vt.Def.Name)
}

// InsertColumn is the base column an INSERT through the view fills: an
// expression column makes the view not insertable-into (1471).
func (vt *Target) InsertColumn(name string) (int, error) {
	e := vt.Cols.Cols[strings.ToLower(name)]
	if e == nil {
		return -1, sqlerr.New(sqlerr.ErBadField, "Unknown column '%s' in 'INSERT INTO'", name)
	}
	if e.Col < 0 {
		return -1, sqlerr.New(sqlerr.ErNonInsertableTable, "The target table %s of the INSERT is not insertable-into", vt.Cols.Name)
	}
	return e.Col, nil
}

// TableScope is sc without a view's columns: a written table's own
// CHECKs and FOREIGN KEYs name its columns, not the view's.
func TableScope(sc *expr.Scope) *expr.Scope {
	if sc.View == nil {
		return sc
	}
	c := *sc
	c.View = nil
	return &c
}
