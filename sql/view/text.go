package view

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/compose"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/plan"
	"github.com/plrun/plrun/sql/query"
	"github.com/plrun/plrun/storage"
)

// How a view's SELECT is printed: as MariaDB stores it (SHOW CREATE VIEW)
// and, with its databases, as information_schema.VIEWS prints it.

// viewText prints a view's query as MariaDB stores it: a SELECT (or
// each SELECT of a UNION ...) with its columns qualified and named; any
// other form (WITH, a set operation's ORDER BY) as plrun restores it.
func viewText(rs ast.ResultSetNode, q query.Plan, names []string) string {
	if n, ok := rs.(*ast.SelectStmt); ok && n.With == nil {
		if pl, ok := q.(Select); ok {
			return selectViewText(n, pl, names)
		}
	}
	so, ok := rs.(*ast.SetOprStmt)
	sp, _ := q.(*compose.SetOp)
	if !ok || sp == nil || so.With != nil || so.OrderBy != nil || so.Limit != nil {
		return expr.ExprText(rs)
	}
	leaves := sp.Leaves()
	if len(leaves) != len(so.SelectList.Selects) {
		return expr.ExprText(rs)
	}
	var b strings.Builder
	for i, part := range so.SelectList.Selects {
		sel, ok := part.(*ast.SelectStmt)
		pl, ok2 := leaves[i].(Select)
		if !ok || !ok2 || sel.With != nil || sel.IsInBraces {
			return expr.ExprText(rs)
		}
		if i > 0 {
			b.WriteString(" " + strings.ToLower(sel.AfterSetOperator.String()) + " ")
		}
		own := names
		if i > 0 {
			own = nil
			for _, c := range leaves[i].Columns() {
				own = append(own, c.Name)
			}
		}
		b.WriteString(selectViewText(sel, pl, own))
	}
	return b.String()
}

// fromText prints a FROM clause: a single table as `t` `alias`.
func fromText(from *ast.TableRefsClause) string {
	if ts := plan.SingleSource(from); ts != nil {
		if tn, ok := ts.Source.(*ast.TableName); ok {
			out := quoteName(tn.Name.O)
			if tn.Schema.O != "" {
				out = quoteName(tn.Schema.O) + "." + out
			}
			if ts.AsName.O != "" {
				out += " " + quoteName(ts.AsName.O)
			}
			return out
		}
	}
	return expr.ExprText(from.TableRefs)
}

// selectViewText prints a SELECT as MariaDB stores a view's: columns
// qualified by their table, each with its name, * expanded.
func selectViewText(n *ast.SelectStmt, pl Select, names []string) string {
	q := &qualifier{}
	if ts := plan.SingleSource(n.From); ts != nil && pl.Table() != nil {
		q.alias = pl.Table().Def.Name
		if tn, ok := ts.Source.(*ast.TableName); ok && ts.AsName.O == "" {
			q.schema = tn.Schema.O // FROM db.t: columns are `db`.`t`.`c`
		}
		if ts.AsName.O != "" {
			q.alias = ts.AsName.O
		}
		if m := pl.Merged(); m != nil {
			// FROM a merged view: its columns are the view's, named by
			// its alias (MariaDB's `v`.`c`), not the base table's
			q.alias, q.schema = m.Cols.Name, ""
		}
	}
	var fields []string
	i := 0
	for _, f := range n.Fields.Fields {
		if f.WildCard != nil {
			for _, c := range wildcardColumns(pl, f.WildCard.Table.O, q.schema) {
				fields = append(fields, c+" AS "+quoteName(names[i]))
				i++
			}
			continue
		}
		f.Expr.Accept(q)
		fields = append(fields, expr.ExprText(f.Expr)+" AS "+quoteName(names[i]))
		i++
	}
	var b strings.Builder
	b.WriteString("select ")
	if n.Distinct {
		b.WriteString("distinct ")
	}
	b.WriteString(strings.Join(fields, ","))
	if n.From != nil {
		b.WriteString(" from " + fromText(n.From))
	}
	if n.Where != nil {
		n.Where.Accept(q)
		b.WriteString(" where " + expr.ExprText(n.Where))
	}
	if n.GroupBy != nil {
		qualifyGroupBy(n, q)
		b.WriteString(" group by " + byItems(n.GroupBy.Items))
	}
	if n.Having != nil {
		b.WriteString(" having " + expr.ExprText(n.Having.Expr))
	}
	if n.OrderBy != nil {
		b.WriteString(" order by " + byItems(n.OrderBy.Items))
	}
	if n.Limit != nil {
		b.WriteString(" limit ")
		if n.Limit.Offset != nil {
			b.WriteString(expr.ExprText(n.Limit.Offset) + ",")
		}
		b.WriteString(expr.ExprText(n.Limit.Count))
	}
	return b.String()
}

func byItems(items []*ast.ByItem) string {
	var out []string
	for _, it := range items {
		t := expr.ExprText(it.Expr)
		if it.Desc {
			t += " desc"
		}
		out = append(out, t)
	}
	return strings.Join(out, ",")
}

// wildcardColumns are the qualified columns * (or t.*) stands for.
func wildcardColumns(pl Select, only, schema string) []string {
	var out []string
	prefix := ""
	if schema != "" {
		prefix = quoteName(schema) + "."
	}
	add := func(alias string, def *storage.TableDef) {
		if only != "" && !strings.EqualFold(only, alias) {
			return
		}
		for _, c := range def.Columns {
			out = append(out, prefix+quoteName(alias)+"."+quoteName(c.Name))
		}
	}
	if m := pl.Merged(); m != nil {
		if only == "" || strings.EqualFold(only, m.Cols.Name) {
			for _, c := range m.Def.Columns {
				out = append(out, quoteName(m.Cols.Name)+"."+quoteName(c))
			}
		}
		return out
	}
	for _, src := range pl.FromTables() {
		add(src.Alias, src.Def)
	}
	return out
}

func quoteName(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }

// qualifier names the table of every bare column of a one-table SELECT
// (not inside subqueries, whose columns are their own).
type qualifier struct{ alias, schema string }

func (q *qualifier) Enter(n ast.Node) (ast.Node, bool) {
	switch x := n.(type) {
	case *ast.SubqueryExpr:
		return n, true
	case *ast.ColumnNameExpr:
		if q.alias != "" && x.Name.Table.L == "" {
			x.Name.Table = ast.NewCIStr(q.alias)
		}
		if q.schema != "" && x.Name.Schema.L == "" && strings.EqualFold(x.Name.Table.O, q.alias) {
			x.Name.Schema = ast.NewCIStr(q.schema)
		}
	}
	return n, false
}

func (q *qualifier) Leave(n ast.Node) (ast.Node, bool) { return n, true }
