package expr

import (
	"time"

	"github.com/plrun/plrun/types"
)

// timeFunc compiles the date and time functions.
func timeFunc(f *call) (*Expr, error) {
	mk := f.mk
	switch f.name {
	case "now", "current_timestamp", "sysdate", "localtime", "localtimestamp", "utc_timestamp":
		e := mk(tDatetime, func(c *Ctx, vs []types.Value) (types.Value, error) {
			return types.TimeValue(time.Now().Truncate(time.Second)), nil
		})
		e.IsConst = false
		return e, nil
	case "curdate", "current_date", "utc_date":
		return mk(types.ColType{Base: types.TDate}, func(c *Ctx, vs []types.Value) (types.Value, error) {
			y, m, d := time.Now().Date()
			return types.TimeValue(time.Date(y, m, d, 0, 0, 0, 0, time.UTC)), nil
		}), nil
	case "unix_timestamp":
		return mk(TBigInt, func(c *Ctx, vs []types.Value) (types.Value, error) {
			if len(vs) == 0 {
				return types.IntValue(time.Now().Unix()), nil
			}
			if vs[0].IsNull() {
				return types.Null, nil
			}
			v, err := types.Coerce(vs[0], tDatetime)
			if err != nil {
				return types.Null, nil
			}
			return types.IntValue(v.Time().Unix()), nil
		}), nil
	}
	return nil, nil
}
