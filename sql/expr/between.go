package expr

import "github.com/plrun/plrun/types"

// betweenExpr is x BETWEEN lo AND hi as MySQL defines it: (x >= lo AND
// x <= hi) under three-valued logic, and NOT BETWEEN its negation. A NULL
// bound does not make the answer NULL when the other bound decides it:
// 5 NOT BETWEEN NULL AND 3 is TRUE (5 > 3), 5 BETWEEN NULL AND 3 FALSE.
func betweenExpr(parts []*Expr, not bool) *Expr {
	return derived(func(c *Ctx) (types.Value, error) {
		vs, err := evalArgs(c, parts)
		if err != nil {
			return types.Null, err
		}
		x, lo, hi := vs[0], vs[1], vs[2]
		if x.IsNull() {
			return types.Null, nil
		}
		// Each side is true, false or unknown (NULL bound).
		geKnown, ge := !lo.IsNull(), false
		if geKnown {
			ge = types.Compare(x, lo) >= 0
		}
		leKnown, le := !hi.IsNull(), false
		if leKnown {
			le = types.Compare(x, hi) <= 0
		}
		var in types.Value
		switch {
		case (geKnown && !ge) || (leKnown && !le):
			in = BoolValue(false)
		case geKnown && leKnown:
			in = BoolValue(true)
		default:
			return types.Null, nil
		}
		if not {
			return BoolValue(in.I == 0), nil
		}
		return in, nil
	}, TBool, parts...)
}
