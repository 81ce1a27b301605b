package exec

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/compose"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
)

// FROM items: stored tables, CTEs, derived tables and views (their
// placeholders and materialization are sql/compose's, derived.go).

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
			pl.keys.AddKeys(t.Def, alias)
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
			if c := s.with.Lookup(src.Name.L); c != nil {
				t, err := c.Reference()
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
		def, err := compose.PlaceholderDef(q.Columns(), nil, ts.AsName.O)
		if err != nil {
			return nil, "", false, err
		}
		ph := storage.NewTable(def)
		pl.derived = append(pl.derived, &compose.Derived{Placeholder: ph, Query: q})
		return ph, ts.AsName.O, true, nil
	}
	return nil, "", false, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support this FROM clause")
}

// materialize runs pl's CTEs, then its derived tables (which may read
// them), binding each one's rows in ec.
func (pl *SelectPlan) materialize(ec *expr.Ctx) error {
	return compose.Materialize(ec, pl.ctes, pl.derived)
}
