package aggregate

import (
	"math"

	"github.com/cockroachdb/apd/v3"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/types"
)

// Acc accumulates one aggregate over a group (GROUP BY's) or a window
// frame (sql/window's); the zero Acc has seen no row.
type Acc struct {
	count int64
	sum   types.Value
	best  types.Value
	seen  map[string]bool
	cat   *concatAcc // GROUP_CONCAT's rows
}

// Add accumulates the aggregate's argument for the current row of ec.
func (a *Acc) Add(spec *Spec, ec *expr.Ctx, mem *expr.MemAccount) error {
	if spec.Concat != nil {
		if a.cat == nil {
			a.cat = &concatAcc{}
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
	return a.AddValue(spec, v, mem)
}

// addValue accumulates v, the argument's value for one row.
func (a *Acc) AddValue(spec *Spec, v types.Value, mem *expr.MemAccount) error {
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

// Result is the aggregate's value over the rows accumulated.
func (a *Acc) Result(spec *Spec, ec *expr.Ctx) types.Value {
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
