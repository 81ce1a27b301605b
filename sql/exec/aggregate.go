package exec

import (
	"math"

	"github.com/cockroachdb/apd/v3"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/query"
	"github.com/plrun/plrun/types"
)

// group is one GROUP BY bucket.
type group struct {
	first []types.Value
	accs  []aggAcc
}

func (pl *SelectPlan) groupRows(ec *expr.Ctx, rows [][]types.Value) ([]query.Row, error) {
	ctxs, err := pl.groupContexts(ec, rows)
	if err != nil {
		return nil, err
	}
	return pl.projectContexts(ec, ctxs)
}

// groupContexts groups rows by GROUP BY, computes the aggregates and
// keeps the groups HAVING accepts, in order of their first row.
func (pl *SelectPlan) groupContexts(ec *expr.Ctx, rows [][]types.Value) ([]evalCtx, error) {
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
	out := make([]evalCtx, 0, len(order))
	for _, k := range order {
		g := groups[k]
		row := g.first
		if row == nil && pl.join != nil {
			row = make([]types.Value, pl.join.Width)
		} else if row == nil && pl.t != nil {
			row = make([]types.Value, len(pl.t.Def.Columns))
		}
		aggs := make([]types.Value, len(pl.aggs))
		for i := range pl.aggs {
			aggs[i] = g.accs[i].result(&pl.aggs[i], ec)
		}
		ec.Row, ec.Aggs = row, aggs
		if pl.having != nil {
			ok, err := expr.EvalBool(pl.having, ec)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
		}
		out = append(out, evalCtx{row: row, aggs: aggs})
	}
	ec.Aggs = nil
	return out, nil
}

// evalCtx is what a result row's expressions read: a source row, and a
// group's aggregate values.
type evalCtx struct {
	row  []types.Value
	aggs []types.Value
}

// projectContexts projects each row (or group) in order.
func (pl *SelectPlan) projectContexts(ec *expr.Ctx, ctxs []evalCtx) ([]query.Row, error) {
	out := make([]query.Row, 0, len(ctxs))
	for _, c := range ctxs {
		ec.Row, ec.Aggs = c.row, c.aggs
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
	cat   *expr.ConcatAcc // GROUP_CONCAT's rows
}

func (a *aggAcc) add(spec *expr.AggSpec, ec *expr.Ctx, mem *expr.MemAccount) error {
	if spec.Concat != nil {
		if a.cat == nil {
			a.cat = &expr.ConcatAcc{}
		}
		return a.cat.Add(spec.Concat, spec.Distinct, ec)
	}
	if spec.Arg == nil {
		a.count++
		return nil
	}
	v, err := spec.Arg.Fn(ec)
	if err != nil {
		return err
	}
	return a.addValue(spec, v, mem)
}

// addValue accumulates v, the argument's value for one row.
func (a *aggAcc) addValue(spec *expr.AggSpec, v types.Value, mem *expr.MemAccount) error {
	var err error
	if spec.Arg == nil {
		a.count++
		return nil
	}
	if v.IsNull() {
		return nil
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

func (a *aggAcc) result(spec *expr.AggSpec, ec *expr.Ctx) types.Value {
	if spec.Concat != nil {
		if a.cat == nil {
			return types.Null
		}
		return a.cat.Result(spec.Concat, ec)
	}
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
