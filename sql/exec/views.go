package exec

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/compose"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/query"
	"github.com/plrun/plrun/sql/view"
	"github.com/plrun/plrun/storage"
)

// Views are sql/view's; this is the planning state they ask of the
// session (State is their view.Host) and of a SELECT's plan (SelectPlan is
// a view.Select), and the session's entry points package sql, sql/ddl,
// sql/show and information_schema call.

// ViewDefinition is a view's SELECT as planned for CREATE VIEW.
type ViewDefinition = view.Definition

// DefineView plans sel as a view's SELECT in database db (view.Define).
func (s *State) DefineView(db string, sel ast.StmtNode, names []string) (*ViewDefinition, error) {
	return view.Define(s, db, sel, names)
}

// ViewTable is a table of view db.name's columns (no rows), for SHOW
// COLUMNS and DESCRIBE; nil if there is no such view.
func (s *State) ViewTable(tn *ast.TableName) (*storage.Table, error) { return view.Table(s, tn) }

// ViewColumns are view v's columns as information_schema.COLUMNS lists
// them (view.Columns).
func (s *State) ViewColumns(v *storage.ViewDef) ([]storage.Column, bool, error) {
	return view.Columns(s, v)
}

// ViewDefinition is v's SELECT as information_schema.VIEWS prints it
// (view.Text).
func (s *State) ViewDefinition(v *storage.ViewDef) (string, error) { return view.Text(s, v) }

// Catalog holds the tables and views names resolve to (view.Host).
func (s *State) Catalog() *storage.Catalog { return s.txns.Catalog() }

// HasCTE reports whether a CTE of that name is in scope (view.Host).
func (s *State) HasCTE(name string) bool { return s.with.Lookup(name) != nil }

// ViewDepth counts the views being expanded into the query planned
// (view.Host).
func (s *State) ViewDepth() int { return s.viewDepth }

// PlanView plans a view's SELECT in its database, the query's CTEs out of
// scope (view.Host): CREATE VIEW's (defining: a temporary table is
// refused, 1352) or a view's a query names, one view deeper.
func (s *State) PlanView(db string, rs ast.ResultSetNode, defining bool) (query.Plan, error) {
	savedDB, restore := s.DB, s.with.Isolate()
	s.DB = db
	if defining {
		s.definingView = true
	} else {
		s.viewDepth++
	}
	defer func() {
		if defining {
			s.definingView = false
		} else {
			s.viewDepth--
		}
		s.DB = savedDB
		restore()
	}()
	return s.buildQuery(rs, nil)
}

// viewSource plans a FROM item naming view v as a derived table of pl.
func (s *State) viewSource(pl *SelectPlan, v *storage.ViewDef, alias string) (*storage.Table, string, error) {
	ph, q, err := view.Source(s, v, alias)
	if err != nil {
		return nil, "", err
	}
	pl.derived = append(pl.derived, &compose.Derived{Placeholder: ph, Query: q})
	return ph, alias, nil
}

// Table is the one table pl's FROM reads, nil for a join or none
// (view.Select).
func (pl *SelectPlan) Table() *storage.Table { return pl.t }

// FromTables are the tables * stands for (view.Select).
func (pl *SelectPlan) FromTables() []view.FromTable {
	if pl.join != nil {
		out := make([]view.FromTable, len(pl.join.Tables))
		for i, jt := range pl.join.Tables {
			out[i] = view.FromTable{Alias: jt.Alias, Def: jt.Table.Def}
		}
		return out
	}
	if pl.t != nil {
		return []view.FromTable{{Alias: pl.t.Def.Name, Def: pl.t.Def}}
	}
	return nil
}

// Merged is the view merged into pl's FROM (view.Select).
func (pl *SelectPlan) Merged() *view.Target { return pl.merged }

// Plain reports that pl has no aggregate, GROUP BY, DISTINCT, window
// function, derived table, CTE or LIMIT (view.Select).
func (pl *SelectPlan) Plain() bool {
	return !pl.grouped && !pl.distinct && len(pl.windows.Funcs) == 0 && len(pl.derived) == 0 && len(pl.ctes) == 0 && pl.limit == nil
}

// expandViewWildcard adds the columns of * over a merged view.
func (pl *SelectPlan) expandViewWildcard(alias string) {
	v := pl.merged
	for _, name := range v.Def.Columns {
		ce := v.Cols.Cols[strings.ToLower(name)]
		pl.outs = append(pl.outs, expr.OutputCol{Name: name, Expr: ce})
		col := Column{Name: name, OrgName: name, Table: alias, OrgTable: v.Def.Name, DB: v.Def.DB, Type: ce.Type}
		if ce.Col >= 0 {
			col.NotNull = v.Base.Def.Columns[ce.Col].NotNull
		}
		pl.Cols = append(pl.Cols, col)
	}
}
