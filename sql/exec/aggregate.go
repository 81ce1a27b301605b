package exec

import (
	"math"

	"github.com/cockroachdb/apd/v3"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/types"
)

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
			ec.Aggs[i] = g.accs[i].result(&pl.aggs[i], ec)
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
