package exec

import (
	"context"
	"math"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/test_driver"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sql/plan"
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

type orderItem struct {
	e    *expr.Expr
	desc bool
}

type SelectPlan struct {
	t         *storage.Table
	acc       *plan.Access
	outs      []expr.OutputCol
	Cols      []Column
	aggs      []expr.AggSpec
	grouped   bool
	groupBy   []*expr.Expr
	having    *expr.Expr
	order     []orderItem
	limit     *expr.Expr
	offset    *expr.Expr
	forUpdate bool
	distinct  bool
	join      *plan.Join // FROM with joins (t is nil then)
	// correlated: the plan names columns of an enclosing query, read from
	// evalCtx.outer; it runs once per outer row.
	correlated bool
	// calcFoundRows: SQL_CALC_FOUND_ROWS, FOUND_ROWS() counts rows before LIMIT.
	calcFoundRows bool
}

// expandJoinWildcard adds the columns of * (every joined table) or t.*.
func (pl *SelectPlan) expandJoinWildcard(only string) error {
	found := false
	for _, jt := range pl.join.Tables {
		if only != "" && !strings.EqualFold(only, jt.Alias) {
			continue
		}
		found = true
		for i, c := range jt.Table.Def.Columns {
			ce := expr.ColumnExpr(jt.Table.Def, i, jt.Off+i, &jt.Source)
			pl.outs = append(pl.outs, expr.OutputCol{Name: c.Name, Expr: ce})
			pl.Cols = append(pl.Cols, Column{Name: c.Name, OrgName: c.Name, Table: jt.Alias, OrgTable: jt.Table.Def.Name, DB: jt.Table.Def.DB, Type: c.Type, NotNull: c.NotNull && !jt.Left})
		}
	}
	if !found {
		return sqlerr.New(sqlerr.ErBadTable, "Unknown table '%s'", only)
	}
	return nil
}

func (s *State) BuildSelect(n *ast.SelectStmt) (*SelectPlan, error) {
	return s.buildSubSelect(n, nil)
}

// buildSubSelect plans a SELECT; outer, for a subquery, is the enclosing
// query's scope, whose columns the subquery may name (it is then
// correlated and runs once per row of the enclosing query).
func (s *State) buildSubSelect(n *ast.SelectStmt, outer *expr.Scope) (*SelectPlan, error) {
	if n.Kind != ast.SelectStmtKindSelect {
		return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support this SELECT form")
	}
	pl := &SelectPlan{distinct: n.Distinct}
	if n.SelectStmtOpts != nil {
		pl.calcFoundRows = n.SelectStmtOpts.CalcFoundRows
	}
	sc := &expr.Scope{DB: s.DB, Sub: s, Outer: outer, Correlated: &pl.correlated}
	var tn *ast.TableName
	var alias string
	var err error
	if plan.IsJoin(n.From) {
		if n.LockInfo != nil && n.LockInfo.LockType != ast.SelectLockNone {
			return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support locking reads of joins")
		}
		if pl.join, err = plan.BuildJoin(sc, n.From, n.Where, s.ResolveTable); err != nil {
			return nil, err
		}
	} else if tn, alias, err = plan.SingleTable(n.From); err != nil {
		return nil, err
	}
	if tn != nil {
		if pl.t, err = s.ResolveTable(tn); err != nil {
			return nil, err
		}
		sc.Table, sc.Alias = pl.t, alias
	}
	sc.Aggs = &pl.aggs
	sc.Clause = "SELECT"
	if n.Fields != nil {
		for _, f := range n.Fields.Fields {
			if f.WildCard != nil && pl.join != nil {
				if err := pl.expandJoinWildcard(f.WildCard.Table.O); err != nil {
					return nil, err
				}
				continue
			}
			if f.WildCard != nil {
				if pl.t == nil {
					return nil, sqlerr.New(sqlerr.ErNoTablesUsed, "No tables used")
				}
				if w := f.WildCard.Table.O; w != "" && !strings.EqualFold(w, alias) {
					return nil, sqlerr.New(sqlerr.ErBadTable, "Unknown table '%s'", w)
				}
				for i, c := range pl.t.Def.Columns {
					ce, _ := sc.ResolveColumn(&ast.ColumnName{Name: ast.NewCIStr(c.Name)})
					pl.outs = append(pl.outs, expr.OutputCol{Name: c.Name, Expr: ce})
					pl.Cols = append(pl.Cols, Column{Name: c.Name, OrgName: c.Name, Table: alias, OrgTable: pl.t.Def.Name, DB: pl.t.Def.DB, Type: c.Type, NotNull: pl.t.Def.Columns[i].NotNull})
				}
				continue
			}
			ce, err := sc.Compile(f.Expr)
			if err != nil {
				return nil, err
			}
			name := f.AsName.O
			if cn, ok := f.Expr.(*ast.ColumnNameExpr); ok && name == "" {
				name = cn.Name.Name.O // t.id is labelled id, as MySQL does
			}
			if name == "" {
				name = selectLabel(f)
			}
			col := Column{Name: name, Type: ce.Type}
			if ce.Source != nil {
				c := ce.Source.Table.Def.Columns[ce.Col]
				col.OrgName, col.Table, col.OrgTable, col.DB = c.Name, ce.Source.Alias, ce.Source.Table.Def.Name, ce.Source.Table.Def.DB
				col.NotNull = c.NotNull && !ce.Source.Left
			} else if ce.Col >= 0 && pl.t != nil {
				c := pl.t.Def.Columns[ce.Col]
				col.OrgName, col.Table, col.OrgTable, col.DB, col.NotNull = c.Name, alias, pl.t.Def.Name, pl.t.Def.DB, c.NotNull
			}
			pl.outs = append(pl.outs, expr.OutputCol{Name: name, Expr: ce})
			pl.Cols = append(pl.Cols, col)
		}
	}
	sc.Aggs = nil
	sc.Clause = "WHERE"
	if pl.join != nil {
		// WHERE is part of the join plan.
	} else if pl.t != nil {
		if pl.acc, err = plan.ChooseAccess(sc, pl.t, n.Where); err != nil {
			return nil, err
		}
	} else if n.Where != nil {
		f, err := sc.Compile(n.Where)
		if err != nil {
			return nil, err
		}
		pl.acc = &plan.Access{Filter: f}
	}
	sc.Aggs = &pl.aggs
	if n.GroupBy != nil {
		sc.Clause = "GROUP BY"
		for _, g := range n.GroupBy.Items {
			ce, err := s.compileOrderExpr(sc, pl, g.Expr)
			if err != nil {
				return nil, err
			}
			pl.groupBy = append(pl.groupBy, ce)
		}
	}
	sc.Outputs = pl.outs
	if n.Having != nil {
		sc.Clause = "HAVING"
		if pl.having, err = sc.Compile(n.Having.Expr); err != nil {
			return nil, err
		}
	}
	if n.OrderBy != nil {
		sc.Clause = "ORDER BY"
		for _, o := range n.OrderBy.Items {
			ce, err := s.compileOrderExpr(sc, pl, o.Expr)
			if err != nil {
				return nil, err
			}
			pl.order = append(pl.order, orderItem{e: ce, desc: o.Desc})
		}
	}
	pl.grouped = len(pl.aggs) > 0 || len(pl.groupBy) > 0
	if pl.grouped && s.SQLMode()&sysvar.ModeOnlyFullGroup != 0 {
		if err := s.checkFullGroupBy(n, pl, alias); err != nil {
			return nil, err
		}
	}
	if n.Limit != nil {
		if pl.limit, err = sc.Compile(n.Limit.Count); err != nil {
			return nil, err
		}
		if n.Limit.Offset != nil {
			if pl.offset, err = sc.Compile(n.Limit.Offset); err != nil {
				return nil, err
			}
		}
	}
	if n.LockInfo != nil {
		switch n.LockInfo.LockType {
		case ast.SelectLockNone:
		case ast.SelectLockForUpdate, ast.SelectLockForShare:
			// plrun's row locks are exclusive: LOCK IN SHARE MODE takes
			// the same lock as FOR UPDATE (stronger than InnoDB's shared
			// lock, never weaker), so what it read cannot change under it.
			pl.forUpdate = true
		default:
			return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support NOWAIT, WAIT n or SKIP LOCKED")
		}
	}
	return pl, nil
}

// compileOrderExpr resolves ORDER BY / GROUP BY items: a position, a
// select-list alias, or an expression.
func (s *State) compileOrderExpr(sc *expr.Scope, pl *SelectPlan, e ast.ExprNode) (*expr.Expr, error) {
	if pos, ok := e.(*ast.PositionExpr); ok {
		if pos.N < 1 || pos.N > len(pl.outs) {
			return nil, sqlerr.New(sqlerr.ErBadField, "Unknown column '%d' in '%s'", pos.N, sc.ClauseName())
		}
		return pl.outs[pos.N-1].Expr, nil
	}
	if cn, ok := e.(*ast.ColumnNameExpr); ok && cn.Name.Table.L == "" {
		for _, o := range pl.outs {
			if strings.EqualFold(o.Name, cn.Name.Name.O) {
				return o.Expr, nil
			}
		}
	}
	return sc.Compile(e)
}

// PlanSubquery plans a subquery's SELECT (SubqueryPlanner).
func (s *State) PlanSubquery(sel *ast.SelectStmt, outer *expr.Scope) (expr.Subquery, error) {
	return s.buildSubSelect(sel, outer)
}

// Correlated reports whether the (sub)query names an enclosing query's
// column (Subquery).
func (pl *SelectPlan) Correlated() bool { return pl.correlated }

// ColumnTypes are the types of the select list (Subquery).
func (pl *SelectPlan) ColumnTypes() []types.ColType {
	out := make([]types.ColType, len(pl.Cols))
	for i, c := range pl.Cols {
		out[i] = c.Type
	}
	return out
}

// Run executes the subquery in the enclosing statement (Subquery).
func (pl *SelectPlan) Run(c *expr.Ctx, outer []types.Value) ([][]types.Value, error) {
	res, err := runSubSelect(c.Context, c.Txn, c.Env, pl, c.Args, outer, c.Strict)
	if err != nil {
		return nil, err
	}
	return res.Rows, nil
}

// outRow is a result row and the context its ORDER BY keys evaluate in.
type outRow struct {
	vals []types.Value
	keys []types.Value
}

func (s *State) ExecSelect(ctx context.Context, x *txn.Txn, p *parse.Stmt, n *ast.SelectStmt, args []types.Value) (*Result, error) {
	pi, err := s.PlanFor(p, func() (any, error) { return s.BuildSelect(n) })
	if err != nil {
		return nil, err
	}
	return s.runSelect(ctx, x, pi.(*SelectPlan), args)
}

// runSelect executes a compiled SELECT in x.
func (s *State) runSelect(ctx context.Context, x *txn.Txn, pl *SelectPlan, args []types.Value) (*Result, error) {
	res, err := runSubSelect(ctx, x, &s.Env, pl, args, nil, false)
	if err == nil {
		s.FoundRows = res.foundRows
		s.RowCount = -1
	}
	return res, err
}

// runSubSelect runs a (sub)query; outer is the enclosing query's current
// row, for a correlated subquery; strict is set when it feeds an INSERT
// or UPDATE (strict mode's conversion errors apply).
func runSubSelect(ctx context.Context, x *txn.Txn, env *expr.Env, pl *SelectPlan, args []types.Value, outer []types.Value, strict bool) (*Result, error) {
	var err error
	ec := &expr.Ctx{Env: env, Args: args, Context: ctx, Txn: x, Outer: outer, Strict: strict, Mem: expr.NewMemAccount(ctx), Notes: new([]Note)}
	// What this execution buffers is charged while it runs; the rows it
	// returns are the caller's to account for.
	defer ec.Mem.Close()
	var rows [][]types.Value
	if pl.join != nil {
		if rows, err = pl.join.Rows(ctx, x, ec); err != nil {
			return nil, err
		}
	} else if pl.t != nil {
		// FOR UPDATE locks, in a transaction or under autocommit alike
		// (where the statement's commit releases them).
		refs, err := pl.acc.Find(ctx, x, ec, pl.forUpdate)
		if err != nil {
			return nil, err
		}
		if err := ec.Mem.Grow(int64(len(refs)) * expr.RowBytes); err != nil {
			return nil, err
		}
		rows = make([][]types.Value, len(refs))
		for i, r := range refs {
			rows[i] = r.Vals
		}
	} else {
		ok := true
		if pl.acc != nil && pl.acc.Filter != nil {
			if ok, err = expr.EvalBool(pl.acc.Filter, ec); err != nil {
				return nil, err
			}
		}
		if ok {
			rows = [][]types.Value{nil}
		}
	}
	var out []outRow
	if pl.grouped {
		out, err = pl.groupRows(ec, rows)
	} else {
		out, err = pl.projectRows(ec, rows)
	}
	if err != nil {
		return nil, err
	}
	if pl.distinct {
		if out, err = distinctRows(ec, out); err != nil {
			return nil, err
		}
	}
	if len(pl.order) > 0 {
		err := sortRowsStable(ec, out, func(a, b outRow) bool {
			for k, o := range pl.order {
				c := types.Compare(a.keys[k], b.keys[k])
				if c != 0 {
					return (c < 0) != o.desc
				}
			}
			return false
		})
		if err != nil {
			return nil, err
		}
	}
	found := len(out)
	if out, err = pl.applyLimit(ec, out); err != nil {
		return nil, err
	}
	res := &Result{Columns: append([]Column(nil), pl.Cols...), Rows: make([][]types.Value, len(out))}
	for i, r := range out {
		res.Rows[i] = r.vals
	}
	fixColumnTypes(res)
	res.Notes = *ec.Notes
	res.Warnings = uint16(len(res.Notes))
	// FOUND_ROWS(): the rows before LIMIT under SQL_CALC_FOUND_ROWS, else
	// the rows returned, as MySQL counts them.
	res.foundRows = int64(len(res.Rows))
	if pl.calcFoundRows {
		res.foundRows = int64(found)
	}
	return res, nil
}

// applyLimit cuts out to LIMIT [offset,] count. Counts are unsigned and
// saturate (LIMIT 18446744073709551615, 1 is an empty set, not a panic).
func (pl *SelectPlan) applyLimit(ec *expr.Ctx, out []outRow) ([]outRow, error) {
	if pl.limit == nil {
		return out, nil
	}
	lv, err := pl.limit.Fn(ec)
	if err != nil {
		return nil, err
	}
	limit, ok := expr.RowCountArg(lv)
	offset := 0
	if ok && pl.offset != nil {
		ov, err := pl.offset.Fn(ec)
		if err != nil {
			return nil, err
		}
		offset, ok = expr.RowCountArg(ov)
	}
	if !ok {
		return nil, sqlerr.New(sqlerr.ErWrongArguments, "Incorrect arguments to EXECUTE")
	}
	if offset > len(out) {
		offset = len(out)
	}
	out = out[offset:]
	if limit < len(out) {
		out = out[:limit]
	}
	return out, nil
}

func (pl *SelectPlan) project(ec *expr.Ctx) (outRow, error) {
	if err := ec.Poll(); err != nil {
		return outRow{}, err
	}
	r := outRow{vals: make([]types.Value, len(pl.outs))}
	for i, o := range pl.outs {
		v, err := o.Expr.Fn(ec)
		if err != nil {
			return r, err
		}
		r.vals[i] = v
	}
	if len(pl.order) > 0 {
		r.keys = make([]types.Value, len(pl.order))
		for i, o := range pl.order {
			v, err := o.e.Fn(ec)
			if err != nil {
				return r, err
			}
			r.keys[i] = v
		}
	}
	if err := ec.Mem.Grow(pl.projectedBytes(r)); err != nil {
		return r, err
	}
	return r, nil
}

// projectedBytes is what a result row adds to memory: its values, and the
// strings computed for it (a bare column's string is the table's own).
func (pl *SelectPlan) projectedBytes(r outRow) int64 {
	n := int64(2*expr.RowBytes + expr.ValueBytes*(len(r.vals)+len(r.keys)))
	for i, o := range pl.outs {
		if o.Expr.Col < 0 {
			n += expr.ValuePayload(r.vals[i])
		}
	}
	for i, o := range pl.order {
		if o.e.Col < 0 {
			n += expr.ValuePayload(r.keys[i])
		}
	}
	return n
}

func (pl *SelectPlan) projectRows(ec *expr.Ctx, rows [][]types.Value) ([]outRow, error) {
	out := make([]outRow, 0, len(rows))
	for _, row := range rows {
		ec.Row = row
		r, err := pl.project(ec)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// group is one GROUP BY bucket.
type group struct {
	first []types.Value
	accs  []aggAcc
}

func (pl *SelectPlan) groupRows(ec *expr.Ctx, rows [][]types.Value) ([]outRow, error) {
	var order []string
	groups := map[string]*group{}
	for _, row := range rows {
		if err := ec.Poll(); err != nil {
			return nil, err
		}
		ec.Row = row
		var kb []byte
		for _, g := range pl.groupBy {
			v, err := g.Fn(ec)
			if err != nil {
				return nil, err
			}
			kb = types.KeyString(kb, v)
		}
		k := string(kb)
		g := groups[k]
		if g == nil {
			if err := ec.Mem.Grow(int64(len(k)) + expr.MapKeyBytes + int64(len(pl.aggs))*2*expr.ValueBytes); err != nil {
				return nil, err
			}
			g = &group{first: row, accs: make([]aggAcc, len(pl.aggs))}
			groups[k] = g
			order = append(order, k)
		}
		for i := range pl.aggs {
			if err := g.accs[i].add(&pl.aggs[i], ec, ec.Mem); err != nil {
				return nil, err
			}
		}
	}
	if len(groups) == 0 && len(pl.groupBy) == 0 {
		// An aggregate over no rows still returns one row.
		groups[""] = &group{accs: make([]aggAcc, len(pl.aggs))}
		order = append(order, "")
	}
	out := make([]outRow, 0, len(order))
	for _, k := range order {
		g := groups[k]
		ec.Row = g.first
		if ec.Row == nil && pl.join != nil {
			ec.Row = make([]types.Value, pl.join.Width)
		} else if ec.Row == nil && pl.t != nil {
			ec.Row = make([]types.Value, len(pl.t.Def.Columns))
		}
		ec.Aggs = make([]types.Value, len(pl.aggs))
		for i := range pl.aggs {
			ec.Aggs[i] = g.accs[i].result(&pl.aggs[i])
		}
		if pl.having != nil {
			ok, err := expr.EvalBool(pl.having, ec)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
		}
		r, err := pl.project(ec)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	ec.Aggs = nil
	return out, nil
}

// aggAcc accumulates one aggregate over a group.
type aggAcc struct {
	count int64
	sum   types.Value
	best  types.Value
	seen  map[string]bool
}

func (a *aggAcc) add(spec *expr.AggSpec, ec *expr.Ctx, mem *expr.MemAccount) error {
	if spec.Arg == nil {
		a.count++
		return nil
	}
	v, err := spec.Arg.Fn(ec)
	if err != nil || v.IsNull() {
		return err
	}
	if spec.Distinct {
		if a.seen == nil {
			a.seen = map[string]bool{}
		}
		k := string(types.KeyString(nil, v))
		if a.seen[k] {
			return nil
		}
		if err := mem.Grow(int64(len(k)) + expr.MapKeyBytes); err != nil {
			return err
		}
		a.seen[k] = true
	}
	a.count++
	switch spec.Name {
	case "sum", "avg":
		if spec.Type.Base != types.TDouble {
			if d, ok := v.ToDecimal(); ok {
				v = types.DecimalValue(d)
			}
		} else {
			v = types.FloatValue(v.ToFloat())
		}
		switch {
		case a.sum.IsNull():
			a.sum = v
		case v.K == types.KindFloat:
			// A DOUBLE sum may overflow to infinity; MariaDB then
			// reports 0 (result), not an error.
			a.sum = types.FloatValue(a.sum.F + v.F)
		default:
			if a.sum, err = types.Arith(types.OpAdd, a.sum, v); err != nil {
				return err
			}
		}
	case "min":
		if a.best.IsNull() || types.Compare(v, a.best) < 0 {
			a.best = v
		}
	case "max":
		if a.best.IsNull() || types.Compare(v, a.best) > 0 {
			a.best = v
		}
	}
	return nil
}

func (a *aggAcc) result(spec *expr.AggSpec) types.Value {
	switch spec.Name {
	case "count":
		return types.IntValue(a.count)
	case "sum":
		if a.sum.K == types.KindFloat && math.IsInf(a.sum.F, 0) {
			return types.FloatValue(0)
		}
		return a.sum
	case "avg":
		if a.count == 0 {
			return types.Null
		}
		if spec.Type.Base == types.TDouble {
			if f := a.sum.ToFloat() / float64(a.count); !math.IsInf(f, 0) {
				return types.FloatValue(f)
			}
			return types.FloatValue(0)
		}
		d, _ := a.sum.ToDecimal()
		r := new(apd.Decimal)
		types.DecimalContext.Quo(r, d, apd.New(a.count, 0))
		types.DecimalContext.Quantize(r, r, -int32(spec.Type.Scale))
		return types.DecimalValue(r)
	}
	return a.best
}

func distinctRows(ec *expr.Ctx, in []outRow) ([]outRow, error) {
	seen := map[string]bool{}
	out := in[:0]
	for _, r := range in {
		if err := ec.Poll(); err != nil {
			return nil, err
		}
		var kb []byte
		for _, v := range r.vals {
			kb = types.KeyString(kb, v)
		}
		if seen[string(kb)] {
			continue
		}
		if err := ec.Mem.Grow(int64(len(kb)) + expr.MapKeyBytes); err != nil {
			return nil, err
		}
		seen[string(kb)] = true
		out = append(out, r)
	}
	return out, nil
}

// fixColumnTypes gives columns whose type could not be inferred at plan
// time (placeholders, user variables) the type of their first value.
func fixColumnTypes(r *Result) {
	for i := range r.Columns {
		if r.Columns[i].Type.Base != 0 {
			continue
		}
		t := expr.TVarchar
		for _, row := range r.Rows {
			if !row[i].IsNull() {
				t = expr.TypeOfValue(row[i])
				break
			}
		}
		r.Columns[i].Type = t
	}
}

// selectLabel is the column name MySQL gives a select-list item without an
// alias: a string literal's value, NULL for NULL, otherwise the expression
// as written.
func selectLabel(f *ast.SelectField) string {
	if v, ok := f.Expr.(*test_driver.ValueExpr); ok {
		switch v.Kind() {
		case test_driver.KindNull:
			return "NULL"
		case test_driver.KindString, test_driver.KindBytes:
			return v.GetString()
		}
	}
	if t := strings.TrimSpace(f.Text()); t != "" {
		return t
	}
	return expr.ColumnLabel(f.Expr)
}
