package funcs

import (
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/types"
)

// controlFunc compiles the control-flow functions (IF, IFNULL, COALESCE,
// NULLIF, GREATEST, LEAST).
func controlFunc(f *expr.Call) (*expr.Expr, error) {
	name, args, nargs, mk := f.Name, f.Args, f.NArgs, f.Mk
	switch name {
	case "ifnull", "nvl":
		if err := nargs(2, 2); err != nil {
			return nil, err
		}
		t := expr.UnifyExprs(args[0], args[1])
		e := mk(t, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			if vs[0].IsNull() {
				return expr.Conform(vs[1], t), nil
			}
			return expr.Conform(vs[0], t), nil
		})
		e.NotNull = args[1].NotNull // MariaDB looks at the second alone
		return e, nil
	case "coalesce":
		if err := nargs(1, -1); err != nil {
			return nil, err
		}
		t := expr.UnifyExprs(args...)
		e := mk(t, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			for _, v := range vs {
				if !v.IsNull() {
					return expr.Conform(v, t), nil
				}
			}
			return types.Null, nil
		})
		e.NotNull = false
		for _, a := range args {
			e.NotNull = e.NotNull || a.NotNull
		}
		return e, nil
	case "nullif":
		if err := nargs(2, 2); err != nil {
			return nil, err
		}
		e := mk(args[0].Type, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			if !vs[0].IsNull() && !vs[1].IsNull() && types.Compare(vs[0], vs[1]) == 0 {
				return types.Null, nil
			}
			return vs[0], nil
		})
		e.NotNull = false
		return e, nil
	case "if":
		if err := nargs(3, 3); err != nil {
			return nil, err
		}
		t := expr.UnifyExprs(args[1], args[2])
		e := mk(t, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			if b, known := vs[0].Truthy(); known && b {
				return expr.Conform(vs[1], t), nil
			}
			return expr.Conform(vs[2], t), nil
		})
		return e, nil // NULL when any argument can be, the condition too, as MariaDB says
	case "greatest", "least":
		if err := nargs(2, -1); err != nil {
			return nil, err
		}
		greatest := name == "greatest"
		t := expr.UnifyExprs(args...)
		if t.Base == types.TDouble {
			t = types.ColType{Base: types.TDouble} // computed: 23 long, as MariaDB's GREATEST and LEAST are
		}
		return mk(t, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			if expr.AnyNull(vs) {
				return types.Null, nil
			}
			best := vs[0]
			for _, v := range vs[1:] {
				cmp := types.Compare(v, best)
				if (greatest && cmp > 0) || (!greatest && cmp < 0) {
					best = v
				}
			}
			return expr.Conform(best, t), nil
		}), nil
	}
	return nil, nil
}
