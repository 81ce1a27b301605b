package funcs

import (
	"math/bits"

	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/types"
)

// bitFunc compiles BIT_COUNT(x): the number of bits set in x read as the
// bitwise operators read it (expr.BitOperand: -1 has 64). MariaDB sends
// it as an INT two wide.
func bitFunc(f *expr.Call) (*expr.Expr, error) {
	if f.Name != "bit_count" {
		return nil, nil
	}
	if err := f.NArgs(1, 1); err != nil {
		return nil, err
	}
	return f.Mk(types.ColType{Base: types.TInt, Length: 2}, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
		if vs[0].IsNull() {
			return types.Null, nil
		}
		u, err := expr.BitOperand(c, vs[0])
		if err != nil {
			return types.Null, err
		}
		return types.IntValue(int64(bits.OnesCount64(u))), nil
	}), nil
}
