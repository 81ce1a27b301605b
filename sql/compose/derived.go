package compose

import (
	"strings"

	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/query"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
)

// Derived tables (FROM (SELECT ...) AS d), CTEs and views reach the rest
// of the SELECT machinery as ordinary tables. At plan time each gets a
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

// Derived is a FROM item computed by a query: a derived table, or a view
// read as one.
type Derived struct {
	Placeholder *storage.Table
	Query       query.Plan
}

// PlaceholderDef is the definition of a derived table's or CTE's
// columns, named by names when given; 1060 for a name used twice.
func PlaceholderDef(cols []query.Column, names []string, table string) (*storage.TableDef, error) {
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

// Materialize runs a query's CTEs, then its derived tables (which may
// read them), binding each one's rows in ec.
func Materialize(ec *expr.Ctx, ctes []*CTE, derived []*Derived) error {
	if err := materializeCTEs(ec, ctes); err != nil {
		return err
	}
	for _, d := range derived {
		res, err := d.Query.Exec(query.Nested(ec))
		if err != nil {
			return err
		}
		*ec.Notes = append(*ec.Notes, res.Notes...)
		t, err := query.Fill(ec, d.Placeholder.Def, res.Rows)
		if err != nil {
			return err
		}
		ec.Tables = ec.Tables.Bind(d.Placeholder, t)
	}
	return nil
}
