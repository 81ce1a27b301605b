package exec

import (
	"errors"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	"github.com/plrun/plrun/sql/compose"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sql/plan"
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
)

// Views. A view stores its SELECT as text (storage.ViewDef), written the
// way MariaDB prints it: every column qualified and named (* expanded at
// CREATE VIEW time, as MariaDB does). A query naming a view plans that
// SELECT in the view's database as a derived table of the view's name:
// its rows are materialized per execution like any derived table. A
// statement that writes through an updatable view (one table, no
// aggregate, DISTINCT, GROUP BY, window, UNION or derived table) writes
// the base table: the view's columns resolve to their expressions over
// the base row (expr.ViewColumns), the view's WHERE is added to the
// statement's, and WITH CHECK OPTION checks each written row against it.

// maxViewDepth bounds views over views (and catches a view that, after
// CREATE OR REPLACE, reads itself).
const maxViewDepth = 32

// ViewDefinition is a view's SELECT as planned for CREATE VIEW.
type ViewDefinition struct {
	Columns   []string
	Text      string
	Updatable bool
}

// DefineView plans sel as a view's SELECT in database db (its tables
// resolve there), with the view's column names (names, if the CREATE
// VIEW listed them: 1353 if their count differs).
func (s *State) DefineView(db string, sel ast.StmtNode, names []string) (*ViewDefinition, error) {
	rs, ok := sel.(ast.ResultSetNode)
	if !ok {
		return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support this view definition")
	}
	savedDB, restore := s.DB, s.with.Isolate()
	s.DB, s.definingView = db, true
	defer func() { s.DB, s.definingView = savedDB, false; restore() }()
	q, err := s.buildQuery(rs, nil)
	if err != nil {
		return nil, err
	}
	cols := q.Columns()
	if names != nil && len(names) != len(cols) {
		return nil, sqlerr.New(sqlerr.ErViewWrongList, "View's SELECT and view's field list have different column counts")
	}
	vd := &ViewDefinition{}
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
	pl, _ := q.(*SelectPlan)
	vd.Text = viewText(rs, q, vd.Columns)
	vd.Updatable = pl != nil && pl.t != nil && s.txns.Catalog().Table(pl.t.Def.DB, pl.t.Def.Name) == pl.t &&
		!pl.grouped && !pl.distinct && len(pl.windows.Funcs) == 0 && len(pl.derived) == 0 && len(pl.ctes) == 0 && pl.limit == nil
	return vd, nil
}

// viewSource plans a FROM item naming view v as a derived table.
func (s *State) viewSource(pl *SelectPlan, v *storage.ViewDef, alias string) (*storage.Table, string, error) {
	if s.viewDepth >= maxViewDepth {
		return nil, "", sqlerr.New(sqlerr.ErViewRecursive, "`%s`.`%s` contains view recursion", v.DB, v.Name)
	}
	st, err := parse.ParseOne(v.Select)
	if err != nil {
		return nil, "", err
	}
	rs, ok := st.(ast.ResultSetNode)
	if !ok {
		return nil, "", sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support this view definition")
	}
	savedDB, restore := s.DB, s.with.Isolate()
	s.DB = v.DB
	s.viewDepth++
	q, err := s.buildQuery(rs, nil)
	s.viewDepth--
	s.DB = savedDB
	restore()
	var se *sqlerr.Error
	if errors.As(err, &se) && (se.Code == sqlerr.ErNoSuchTable || se.Code == sqlerr.ErBadField || se.Code == sqlerr.ErBadDB || se.Code == sqlerr.ErSPDoesNotExist) {
		// A table or column the view names is gone.
		return nil, "", sqlerr.New(sqlerr.ErViewInvalid, "View '%s.%s' references invalid table(s) or column(s) or function(s) or definer/invoker of view lack rights to use them", v.DB, v.Name)
	}
	if err != nil {
		return nil, "", err
	}
	names := v.Columns
	if len(names) != len(q.Columns()) {
		names = nil // a view whose tables changed under it: their names
	}
	def, err := compose.PlaceholderDef(q.Columns(), names, alias)
	if err != nil {
		return nil, "", err
	}
	def.DB = v.DB
	ph := storage.NewTable(def)
	pl.derived = append(pl.derived, &compose.Derived{Placeholder: ph, Query: q})
	return ph, alias, nil
}

// viewTarget is an updatable view a statement writes through.
type viewTarget struct {
	def   *storage.ViewDef
	base  *storage.Table
	alias string // the base table's alias in the view's SELECT
	cols  *expr.ViewColumns
	where ast.ExprNode // the view's WHERE, over the base table
}

// writeTarget resolves the table an INSERT, UPDATE or DELETE names: a
// table, or an updatable view over one (1288, 1471 otherwise).
func (s *State) writeTarget(tn *ast.TableName, alias, verb string) (*storage.Table, *viewTarget, error) {
	if db, err := s.DBFor(tn.Schema.O); err == nil && s.IsVirtual(db) {
		return nil, nil, s.AccessDenied() // information_schema is read-only (1044)
	}
	t, err := s.ResolveTable(tn)
	if err == nil {
		return t, nil, nil
	}
	db, dberr := s.DBFor(tn.Schema.O)
	if dberr != nil {
		return nil, nil, err
	}
	v := s.txns.Catalog().View(db, tn.Name.O)
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
	savedDB := s.DB
	s.DB = v.DB
	defer func() { s.DB = savedDB }()
	base, err := s.ResolveTable(btn)
	if err != nil {
		return nil, nil, notUpdatable() // a view over a view
	}
	vt := &viewTarget{def: v, base: base, alias: base.Def.Name, where: sel.Where}
	if ts.AsName.O != "" {
		vt.alias = ts.AsName.O
	}
	if alias == "" {
		alias = tn.Name.O
	}
	vt.cols = &expr.ViewColumns{Name: alias, Cols: map[string]*expr.Expr{}}
	sc := &expr.Scope{DB: v.DB, Funcs: s.Functions(), Table: base, Alias: vt.alias, Sub: s}
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
		vt.cols.Cols[strings.ToLower(name)] = exprs[i]
	}
	return base, vt, nil
}

// column is the base column a view column written to is (1348 for an
// expression, 1054 for no such column).
func (vt *viewTarget) column(cn *ast.ColumnName, clause string) (int, error) {
	e := vt.cols.Cols[strings.ToLower(cn.Name.O)]
	if e == nil || (cn.Table.L != "" && !strings.EqualFold(cn.Table.O, vt.cols.Name)) {
		return -1, sqlerr.New(sqlerr.ErBadField, "Unknown column '%s' in '%s'", expr.Qualified(cn), clause)
	}
	if e.Col < 0 {
		return -1, sqlerr.New(sqlerr.ErNonUpdatableColumn, "Column '%s' is not updatable", cn.Name.O)
	}
	return e.Col, nil
}

// and is the statement's WHERE with the view's.
func (vt *viewTarget) and(where ast.ExprNode) ast.ExprNode {
	switch {
	case vt.where == nil:
		return where
	case where == nil:
		return vt.where
	}
	return &ast.BinaryOperationExpr{Op: opcode.LogicAnd, L: &ast.ParenthesesExpr{Expr: where}, R: &ast.ParenthesesExpr{Expr: vt.where}}
}

// checkOption compiles WITH CHECK OPTION's condition over the base row
// (nil without one).
func (s *State) checkOption(vt *viewTarget) (*expr.Expr, error) {
	if vt == nil || vt.where == nil || vt.def.CheckOption == "" || vt.def.CheckOption == "NONE" {
		return nil, nil
	}
	sc := &expr.Scope{DB: vt.def.DB, Funcs: s.Functions(), Table: vt.base, Alias: vt.alias, Sub: s}
	return sc.Compile(vt.where)
}

// checkFailed is 1369 for view vt.
func (vt *viewTarget) checkFailed() error {
	return sqlerr.New(sqlerr.ErViewCheckFailed, "CHECK OPTION failed `%s`.`%s`", vt.def.DB, vt.def.Name)
}

// insertColumn is the base column an INSERT through the view fills: an
// expression column makes the view not insertable-into (1471).
func (vt *viewTarget) insertColumn(name string) (int, error) {
	e := vt.cols.Cols[strings.ToLower(name)]
	if e == nil {
		return -1, sqlerr.New(sqlerr.ErBadField, "Unknown column '%s' in 'INSERT INTO'", name)
	}
	if e.Col < 0 {
		return -1, sqlerr.New(sqlerr.ErNonInsertableTable, "The target table %s of the INSERT is not insertable-into", vt.cols.Name)
	}
	return e.Col, nil
}

// ViewTable is a table of view db.name's columns (no rows), for SHOW
// COLUMNS and DESCRIBE; nil if there is no such view.
func (s *State) ViewTable(tn *ast.TableName) (*storage.Table, error) {
	db, err := s.DBFor(tn.Schema.O)
	if err != nil {
		return nil, err
	}
	v := s.txns.Catalog().View(db, tn.Name.O)
	if v == nil {
		return nil, nil
	}
	cols, _, err := s.ViewColumns(v)
	if err != nil {
		return nil, err
	}
	// a view's columns are in its database's character set, with their
	// base columns' defaults (ViewColumns), as MariaDB describes them
	def := &storage.TableDef{DB: v.DB, Name: v.Name, Columns: cols, Charset: "utf8mb4", Collate: "utf8mb4_general_ci"}
	return storage.NewTable(def), nil
}

// mergeableView is the view a one-table FROM names when its SELECT can
// merge into the query's (MariaDB's ALGORITHM=MERGE, its choice for an
// UNDEFINED view it can merge): a view one could write through. The query
// then reads the base table by its own access path, the view's WHERE
// added, instead of materializing the whole view. nil: read it as a
// derived table.
func (s *State) mergeableView(ts *ast.TableSource) *viewTarget {
	tn, ok := ts.Source.(*ast.TableName)
	if !ok || (tn.Schema.L == "" && s.with.Lookup(tn.Name.L) != nil) || s.SQLMode()&sysvar.ModeOnlyFullGroup != 0 {
		return nil // ONLY_FULL_GROUP_BY's check reads the table's own names
	}
	if _, err := s.ResolveTable(tn); err == nil {
		return nil
	}
	alias := ts.AsName.O
	_, vt, err := s.writeTarget(tn, alias, "SELECT")
	if err != nil || vt == nil || strings.EqualFold(vt.cols.Name, vt.alias) {
		return nil
	}
	return vt
}

// expandViewWildcard adds the columns of * over a merged view.
func (pl *SelectPlan) expandViewWildcard(alias string) {
	v := pl.merged
	for _, name := range v.def.Columns {
		ce := v.cols.Cols[strings.ToLower(name)]
		pl.outs = append(pl.outs, expr.OutputCol{Name: name, Expr: ce})
		col := Column{Name: name, OrgName: name, Table: alias, OrgTable: v.def.Name, DB: v.def.DB, Type: ce.Type}
		if ce.Col >= 0 {
			col.NotNull = v.base.Def.Columns[ce.Col].NotNull
		}
		pl.Cols = append(pl.Cols, col)
	}
}

// tableScope is sc without a view's columns: a written table's own
// CHECKs and FOREIGN KEYs name its columns, not the view's.
func tableScope(sc *expr.Scope) *expr.Scope {
	if sc.View == nil {
		return sc
	}
	c := *sc
	c.View = nil
	return &c
}
