package compose

import (
	"errors"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/query"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
)

// CTE is one common table expression of a WITH clause. Its rows are
// materialized once per execution of the query that owns the WITH
// (before anything of it runs) and bound to its placeholder, so every
// reference to it, in the FROM, a derived table or a subquery, reads
// the same rows.
type CTE struct {
	name        string
	colNames    []string
	placeholder *storage.Table // nil while a recursive CTE's anchor is planned
	body        query.Plan     // a non-recursive CTE
	// A recursive CTE: the anchor parts run once; each step part runs
	// with the placeholder bound to the rows the previous round added,
	// until a round adds none. distinct is UNION (not UNION ALL): a
	// row already produced is not added again.
	anchors  []query.Plan
	steps    []query.Plan
	distinct bool
	// refs counts the references planned (a recursive part must name
	// the CTE once, in its own FROM).
	refs int
	// forward: a later CTE of a WITH RECURSIVE, not planned yet.
	forward bool
}

// cteScope is the CTEs visible where a query is planned: those of the
// WITH clauses around it, innermost first.
type cteScope struct {
	defs   []*CTE
	parent *cteScope
}

// errCTEPending is a reference to a recursive CTE from its own anchor
// part, before its columns are known: that part is a recursive one.
var errCTEPending = errors.New("recursive CTE referenced before its anchor")

// Lookup is the CTE in scope named name, nil if none.
func (b *Builder) Lookup(name string) *CTE {
	for sc := b.ctes; sc != nil; sc = sc.parent {
		for i := len(sc.defs) - 1; i >= 0; i-- {
			if strings.EqualFold(sc.defs[i].name, name) {
				return sc.defs[i]
			}
		}
	}
	return nil
}

// Reference is the table a FROM naming the CTE reads.
func (c *CTE) Reference() (*storage.Table, error) {
	if c.forward {
		return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support a reference to a later WITH element ('%s')", c.name)
	}
	if c.placeholder == nil {
		return nil, errCTEPending
	}
	c.refs++
	return c.placeholder, nil
}

// PushWith plans a WITH clause's CTEs into *out and makes them visible
// to the rest of the query; pop ends their scope.
func (b *Builder) PushWith(p Planner, w *ast.WithClause, out *[]*CTE) (pop func(), err error) {
	saved := b.ctes
	scope := &cteScope{parent: saved}
	b.ctes = scope
	pop = func() { b.ctes = saved }
	defs := make([]*CTE, len(w.CTEs))
	for i, c := range w.CTEs {
		for _, d := range defs[:i] {
			if strings.EqualFold(d.name, c.Name.O) {
				return pop, sqlerr.New(sqlerr.ErDupQueryName, "Duplicate query name `%s` in WITH clause", c.Name.O)
			}
		}
		defs[i] = &CTE{name: c.Name.O, forward: w.IsRecursive}
		for _, n := range c.ColNameList {
			defs[i].colNames = append(defs[i].colNames, n.O)
		}
	}
	if w.IsRecursive {
		// Every name of a WITH RECURSIVE is in scope from the start, so a
		// reference to a later one is refused, not read as a table.
		scope.defs = defs
	}
	for i, c := range w.CTEs {
		def := defs[i]
		if w.IsRecursive {
			def.forward = false // visible in its own body
			err = planRecursiveCTE(p, def, c.Query.Query)
		} else {
			err = planCTE(p, def, c.Query.Query)
			scope.defs = append(scope.defs, def)
		}
		if err != nil {
			return pop, err
		}
		*out = append(*out, def)
	}
	return pop, nil
}

// planCTE plans a CTE whose body does not name it.
func planCTE(p Planner, def *CTE, q ast.ResultSetNode) error {
	body, err := p.PlanQuery(q, nil)
	if err != nil {
		return err
	}
	def.body = body
	return def.setColumns(body.Columns())
}

// setColumns makes the placeholder of the CTE's columns (4002 when the
// column list does not match).
func (c *CTE) setColumns(cols []query.Column) error {
	if c.colNames != nil && len(c.colNames) != len(cols) {
		return sqlerr.New(sqlerr.ErWithColCountMismatch, "WITH column list and SELECT field list have different column counts")
	}
	def, err := PlaceholderDef(cols, c.colNames, c.name)
	if err != nil {
		return err
	}
	c.placeholder = storage.NewTable(def)
	return nil
}

// planRecursiveCTE splits a WITH RECURSIVE body into anchor parts (not
// naming the CTE), planned first to learn the columns, and recursive
// parts. A body that never names the CTE is a plain CTE.
func planRecursiveCTE(pl Planner, def *CTE, q ast.ResultSetNode) error {
	var parts []ast.Node
	var ops []ast.SetOprType
	if so, ok := q.(*ast.SetOprStmt); ok && (so.OrderBy != nil || so.Limit != nil) {
		if _, err := pl.PlanQuery(q, nil); errors.Is(err, errCTEPending) {
			return sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support 'global ORDER_BY/LIMIT in recursive CTE spec'")
		}
	}
	if so, ok := q.(*ast.SetOprStmt); ok && so.OrderBy == nil && so.Limit == nil && so.With == nil {
		for i, part := range so.SelectList.Selects {
			parts = append(parts, part)
			if i == 0 {
				continue
			}
			op := ast.Union
			switch x := part.(type) {
			case *ast.SelectStmt:
				if x.AfterSetOperator != nil {
					op = *x.AfterSetOperator
				}
			case *ast.SetOprSelectList:
				if x.AfterSetOperator != nil {
					op = *x.AfterSetOperator
				}
			}
			ops = append(ops, op)
		}
	} else {
		parts = []ast.Node{q}
	}
	var recursive []ast.Node
	for _, part := range parts {
		a, err := pl.PlanQuery(part, nil)
		if errors.Is(err, errCTEPending) {
			recursive = append(recursive, part)
			continue
		}
		if err != nil {
			return err
		}
		def.anchors = append(def.anchors, a)
	}
	if len(recursive) == 0 {
		def.anchors = nil
		return planCTE(pl, def, q)
	}
	if len(def.anchors) == 0 {
		return sqlerr.New(sqlerr.ErRecursiveWithoutAnchors, "No anchors for recursive WITH element '%s'", def.name)
	}
	for _, op := range ops {
		switch op {
		case ast.Union:
			def.distinct = true
		case ast.UnionAll:
		default:
			return sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support INTERSECT or EXCEPT in a recursive WITH element")
		}
	}
	cols := append([]query.Column(nil), def.anchors[0].Columns()...)
	for _, a := range def.anchors[1:] {
		if len(a.Columns()) != len(cols) {
			return sqlerr.New(sqlerr.ErWrongNumberOfColumnsInSelect, "The used SELECT statements have a different number of columns")
		}
		for i, c := range a.Columns() {
			cols[i].Type = unifyColumnType(cols[i].Type, c.Type)
		}
	}
	if err := def.setColumns(cols); err != nil {
		return err
	}
	for _, part := range recursive {
		def.refs = 0
		st, err := pl.PlanQuery(part, nil)
		if err != nil {
			return err
		}
		if def.refs != 1 || !def.inOwnFrom(st) {
			// MariaDB's restrictions: one reference, in the part's own
			// FROM, not on the inner side of a LEFT JOIN.
			return sqlerr.New(sqlerr.ErNotStandardCompliantRecursive, "Restrictions imposed on recursive definitions are violated for table '%s'", def.name)
		}
		if len(st.Columns()) != len(cols) {
			return sqlerr.New(sqlerr.ErWrongNumberOfColumnsInSelect, "The used SELECT statements have a different number of columns")
		}
		if sel, ok := st.(Select); ok && sel.Aggregates() {
			// MariaDB's restrictions: no aggregate, GROUP BY or
			// DISTINCT over the recursive reference.
			return sqlerr.New(sqlerr.ErNotStandardCompliantRecursive, "Restrictions imposed on recursive definitions are violated for table '%s'", def.name)
		}
		def.steps = append(def.steps, st)
	}
	return nil
}

// materializeCTEs runs the CTEs of a WITH clause in order, binding each
// one's rows in ec for the CTEs after it and the query.
func materializeCTEs(ec *expr.Ctx, ctes []*CTE) error {
	for _, c := range ctes {
		rows, err := c.rows(ec)
		if err != nil {
			return err
		}
		t, err := query.Fill(ec, c.placeholder.Def, rows)
		if err != nil {
			return err
		}
		ec.Tables = ec.Tables.Bind(c.placeholder, t)
	}
	return nil
}

// rows computes the CTE's rows: its body's, or a recursion's rounds.
// max_recursive_iterations bounds the rounds: past it the rows so far
// are the result, with warning 1931, as MariaDB does.
func (c *CTE) rows(ec *expr.Ctx) ([][]types.Value, error) {
	rc := query.Nested(ec)
	run := func(q query.Plan, rc query.RunCtx) ([][]types.Value, error) {
		res, err := q.Exec(rc)
		if err != nil {
			return nil, err
		}
		*ec.Notes = append(*ec.Notes, res.Notes...)
		for _, r := range res.Rows {
			for i := range r {
				r[i] = expr.Conform(r[i], c.placeholder.Def.Columns[i].Type)
			}
		}
		return res.Rows, nil
	}
	if c.body != nil {
		return run(c.body, rc)
	}
	seen := map[string]bool{}
	var all [][]types.Value
	add := func(rows [][]types.Value) ([][]types.Value, error) {
		if !c.distinct {
			return rows, nil
		}
		out := rows[:0:0]
		for _, r := range rows {
			k := query.RowKey(r)
			if seen[k] {
				continue
			}
			if err := ec.Mem.Grow(int64(len(k)) + expr.MapKeyBytes); err != nil {
				return nil, err
			}
			seen[k] = true
			out = append(out, r)
		}
		return out, nil
	}
	var work [][]types.Value
	for _, a := range c.anchors {
		rows, err := run(a, rc)
		if err != nil {
			return nil, err
		}
		if rows, err = add(rows); err != nil {
			return nil, err
		}
		work = append(work, rows...)
	}
	all = append(all, work...)
	limit := ec.Env.SysVarUint("max_recursive_iterations")
	for round := uint64(0); len(work) > 0; round++ {
		if round >= limit {
			*ec.Notes = append(*ec.Notes, query.Note{Level: "Warning", Code: sqlerr.ErQueryResultIncomplete,
				Message: "Query execution was interrupted. The query exceeded max_recursive_iterations = " + uintText(limit) + ". The query result may be incomplete"})
			break
		}
		if err := ec.PollNow(); err != nil {
			return nil, err
		}
		prev, err := query.Fill(ec, c.placeholder.Def, work)
		if err != nil {
			return nil, err
		}
		step := rc
		step.Binds = rc.Binds.Bind(c.placeholder, prev)
		var next [][]types.Value
		for _, st := range c.steps {
			rows, err := run(st, step)
			if err != nil {
				return nil, err
			}
			if rows, err = add(rows); err != nil {
				return nil, err
			}
			next = append(next, rows...)
		}
		all = append(all, next...)
		work = next
	}
	return all, nil
}

func uintText(n uint64) string { return types.UintValue(n).String() }

// inOwnFrom reports whether q's own FROM reads the CTE, and not as the
// optional side of a LEFT JOIN.
func (c *CTE) inOwnFrom(q query.Plan) bool {
	pl, ok := q.(Select)
	return ok && pl.ReadsDirectly(c.placeholder)
}
