package view

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sql/plan"
	"github.com/plrun/plrun/sql/query"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
)

// Columns are view v's columns as information_schema.COLUMNS lists
// them: each a base column's type, nullability and default when it names
// one (through views too), else its expression's type with MariaDB's
// default for an expression: none when it may be NULL, 0 or ” when not.
// The error is the view's 1356 when its tables or columns are gone.
// direct is whether any column names a base column: MariaDB's view is
// updatable (IS_UPDATABLE) only then.
func Columns(s Host, v *storage.ViewDef) (cols []storage.Column, direct bool, err error) {
	ph, plan, err := Source(s, v, v.Name)
	if err != nil {
		return nil, false, err
	}
	q := plan.Columns()
	cat := s.Catalog()
	out := make([]storage.Column, len(ph.Def.Columns))
	for i, c := range ph.Def.Columns {
		out[i] = storage.Column{Name: c.Name, Type: c.Type, NotNull: c.NotNull}
		if i < len(q) && q[i].OrgName != "" {
			if base, ok := baseColumn(s, cat, q[i]); ok {
				base.Name, base.Comment, base.AutoIncrement, base.OnUpdateNow = c.Name, "", false, false
				out[i] = base
				direct = true
				continue
			}
		}
		if c.NotNull {
			out[i].HasDefault = true
			out[i].Default = types.IntValue(0)
			if c.Type.IsString() {
				out[i].Default = types.StringValue("")
			}
		}
	}
	return out, direct, nil
}

// baseColumn is the table or view column c came from.
func baseColumn(s Host, cat *storage.Catalog, c query.Column) (storage.Column, bool) {
	if t := cat.Table(c.DB, c.OrgTable); t != nil {
		for _, bc := range t.Def.Columns {
			if strings.EqualFold(bc.Name, c.OrgName) {
				return bc, true
			}
		}
		return storage.Column{}, false
	}
	if v := cat.View(c.DB, c.OrgTable); v != nil {
		cols, _, err := Columns(s, v)
		if err != nil {
			return storage.Column{}, false
		}
		for _, bc := range cols {
			if strings.EqualFold(bc.Name, c.OrgName) {
				return bc, true
			}
		}
	}
	return storage.Column{}, false
}

// Text is v's SELECT as information_schema.VIEWS prints it:
// the stored text with every table named by its database too (`db`.`t`,
// and `db`.`t`.`c` for its columns), as MariaDB prints a view's
// definition outside SHOW CREATE VIEW.
func Text(s Host, v *storage.ViewDef) (string, error) {
	st, err := parse.ParseOne(v.Select)
	if err != nil {
		return "", err
	}
	rs, ok := st.(ast.ResultSetNode)
	if !ok {
		return v.Select, nil
	}
	rs.Accept(schemaNamer{v.DB})
	q, err := s.PlanView(v.DB, rs, false)
	if err != nil {
		return brokenViewDefinition(v), nil
	}
	names := v.Columns
	if len(names) != len(q.Columns()) {
		names = nil
		for _, c := range q.Columns() {
			names = append(names, c.Name)
		}
	}
	return viewText(rs, q, names), nil
}

// schemaNamer names db as the database of every table name without one.
type schemaNamer struct{ db string }

func (n schemaNamer) Enter(x ast.Node) (ast.Node, bool) {
	if tn, ok := x.(*ast.TableName); ok && tn.Schema.L == "" {
		tn.Schema = ast.NewCIStr(n.db)
	}
	return x, false
}

func (schemaNamer) Leave(x ast.Node) (ast.Node, bool) { return x, true }

// brokenViewDefinition is the definition of a view that does not plan
// (its table is gone, or a WITH's names): for one SELECT from one table,
// whose stored text names every column by its table already, that table
// named by its database as MariaDB prints it; any other, as stored.
func brokenViewDefinition(v *storage.ViewDef) string {
	st, err := parse.ParseOne(v.Select)
	sel, ok := st.(*ast.SelectStmt)
	if err != nil || !ok || sel.With != nil {
		return v.Select
	}
	ts := plan.SingleSource(sel.From)
	if ts == nil {
		return v.Select
	}
	tn, ok := ts.Source.(*ast.TableName)
	if !ok || tn.Schema.L != "" {
		return v.Select
	}
	tn.Schema = ast.NewCIStr(v.DB)
	names := make([]string, 0, len(sel.Fields.Fields))
	for _, f := range sel.Fields.Fields {
		if f.WildCard != nil || f.AsName.O == "" {
			return v.Select
		}
		names = append(names, f.AsName.O)
	}
	// the plan selectViewText reads: the table's name only
	return selectViewText(sel, tableOnly{storage.NewTable(&storage.TableDef{DB: v.DB, Name: tn.Name.O})}, names)
}

// qualifyGroupBy names the table (and database, when q does) of each
// GROUP BY column, as MariaDB
// stores a view's GROUP BY (`t`.`c`), unless the name is a select-list
// alias of something else (GROUP BY alias), which stays as written.
func qualifyGroupBy(n *ast.SelectStmt, q *qualifier) {
	aliases := map[string]bool{}
	for _, f := range n.Fields.Fields {
		if f.AsName.L == "" {
			continue
		}
		if c, ok := f.Expr.(*ast.ColumnNameExpr); ok && c.Name.Name.L == f.AsName.L {
			continue // `t`.`c` AS `c`: the same column either way
		}
		aliases[f.AsName.L] = true
	}
	for _, it := range n.GroupBy.Items {
		if c, ok := it.Expr.(*ast.ColumnNameExpr); ok && (c.Name.Table.L != "" || !aliases[c.Name.Name.L]) {
			it.Expr.Accept(q)
		}
	}
}
