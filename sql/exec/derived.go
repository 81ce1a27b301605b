package exec

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/query"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
)

// Derived tables (FROM (SELECT ...) AS d) and CTEs reach the rest of the
// SELECT machinery as ordinary tables. At plan time each gets a
// placeholder: a *storage.Table holding only the definition of its
// result columns, never in the catalog, which the access path and join
// planner (sql/plan) resolve names against. Each execution of the
// statement runs the query once, loads its rows into a fresh transient
// table (storage.NewTable, rows applied at LSN 0, visible to any
// snapshot) and binds it to the placeholder in the expr.Ctx the query
// runs in (expr.TableBinding; plan reads through Ctx.TableOf). The plan,
// cached per statement text and shared by sessions, therefore never
// holds one execution's rows; nested and concurrent executions each have
// their own.

// derivedTable is a FROM item computed by a query.
type derivedTable struct {
	placeholder *storage.Table
	q           query.Plan
}

// fromItem resolves a FROM item for pl: a CTE in scope, a stored table,
// or a derived table (planned here, materialized when pl runs).
func (s *State) fromItem(pl *SelectPlan, ts *ast.TableSource) (*storage.Table, string, error) {
	t, alias, placeholder, err := s.resolveFromItem(pl, ts)
	if err == nil && t.Def.Temporary && s.definingView {
		return nil, "", sqlerr.New(sqlerr.ErViewSelectTmptable, "View's SELECT refers to a temporary table '%s'", t.Def.Name)
	}
	if err == nil && placeholder {
		pl.transient = true
		if pl.keys != nil {
			// Still planning: no execution has loaded this definition.
			pl.keys.addKeys(t.Def, alias)
			t.SyncIndexes()
		}
	}
	return t, alias, err
}

// resolveFromItem is fromItem's table; placeholder reports a derived
// table's, CTE's or view's placeholder (rows bound per execution).
func (s *State) resolveFromItem(pl *SelectPlan, ts *ast.TableSource) (t *storage.Table, alias string, placeholder bool, err error) {
	switch src := ts.Source.(type) {
	case *ast.TableName:
		alias = src.Name.O
		if ts.AsName.O != "" {
			alias = ts.AsName.O
		}
		if src.Schema.L == "" {
			if c := s.lookupCTE(src.Name.L); c != nil {
				t, err := c.reference()
				return t, alias, true, err
			}
		}
		t, err := s.ResolveTable(src)
		if err != nil {
			if db, dberr := s.DBFor(src.Schema.O); dberr == nil {
				if v := s.txns.Catalog().View(db, src.Name.O); v != nil {
					t, alias, err := s.viewSource(pl, v, alias)
					return t, alias, true, err
				}
			}
		}
		return t, alias, false, err
	case *ast.SelectStmt, *ast.SetOprStmt:
		if ts.AsName.O == "" {
			return nil, "", false, sqlerr.New(sqlerr.ErDerivedMustHaveAlias, "Every derived table must have its own alias")
		}
		// A derived table sees no column of an enclosing query (MariaDB
		// has no LATERAL).
		q, err := s.buildQuery(src, nil)
		if err != nil {
			return nil, "", false, err
		}
		def, err := placeholderDef(q.Columns(), nil, ts.AsName.O)
		if err != nil {
			return nil, "", false, err
		}
		ph := storage.NewTable(def)
		pl.derived = append(pl.derived, &derivedTable{placeholder: ph, q: q})
		return ph, ts.AsName.O, true, nil
	}
	return nil, "", false, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support this FROM clause")
}

// placeholderDef is the definition of a derived table's or CTE's
// columns, named by names when given; 1060 for a name used twice.
func placeholderDef(cols []Column, names []string, table string) (*storage.TableDef, error) {
	def := query.ResultDef(cols, table)
	for i := range def.Columns {
		if names != nil {
			def.Columns[i].Name = names[i]
		}
		if def.Columns[i].Type.Base == 0 {
			def.Columns[i].Type = expr.TVarchar // a ? or @var: typed by its value
		}
		for j := 0; j < i; j++ {
			if strings.EqualFold(def.Columns[j].Name, def.Columns[i].Name) {
				return nil, sqlerr.New(sqlerr.ErDupFieldName, "Duplicate column name '%s'", def.Columns[i].Name)
			}
		}
	}
	return def, nil
}

// materialize runs pl's CTEs, then its derived tables (which may read
// them), binding each one's rows in ec.
func (pl *SelectPlan) materialize(ec *expr.Ctx) error {
	if err := materializeCTEs(ec, pl.ctes); err != nil {
		return err
	}
	for _, d := range pl.derived {
		rc := query.Nested(ec)
		res, err := d.q.Exec(rc)
		if err != nil {
			return err
		}
		*ec.Notes = append(*ec.Notes, res.Notes...)
		t, err := query.Fill(ec, d.placeholder.Def, res.Rows)
		if err != nil {
			return err
		}
		ec.Tables = ec.Tables.Bind(d.placeholder, t)
	}
	return nil
}
