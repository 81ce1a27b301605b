package callout

import (
	"fmt"
	"time"

	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// ToValues converts Go arguments (a procedure's, a Go caller's) to Values.
func ToValues(args []any) ([]types.Value, error) {
	out := make([]types.Value, len(args))
	for i, a := range args {
		v, err := GoValue(a)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// GoValue converts one Go value to a Value.
func GoValue(a any) (types.Value, error) {
	switch x := a.(type) {
	case nil:
		return types.Null, nil
	case types.Value:
		return x, nil
	case bool:
		return expr.BoolValue(x), nil
	case int:
		return types.IntValue(int64(x)), nil
	case int8:
		return types.IntValue(int64(x)), nil
	case int16:
		return types.IntValue(int64(x)), nil
	case int32:
		return types.IntValue(int64(x)), nil
	case int64:
		return types.IntValue(x), nil
	case uint:
		return types.UintValue(uint64(x)), nil
	case uint8:
		return types.UintValue(uint64(x)), nil
	case uint16:
		return types.UintValue(uint64(x)), nil
	case uint32:
		return types.UintValue(uint64(x)), nil
	case uint64:
		return types.UintValue(x), nil
	case float32:
		return types.FloatValue(float64(x)), nil
	case float64:
		return types.FloatValue(x), nil
	case string:
		return types.StringValue(x), nil
	case []byte:
		return types.StringValue(string(x)), nil
	case time.Time:
		return types.TimeValue(x), nil
	case fmt.Stringer:
		return types.StringValue(x.String()), nil
	}
	return types.Null, sqlerr.New(sqlerr.ErWrongArguments, "Incorrect arguments: unsupported argument type %T", a)
}

// HostValue converts a Value to what procedures receive.
func HostValue(v types.Value) any {
	switch v.K {
	case types.KindNull:
		return nil
	case types.KindInt:
		return v.I
	case types.KindUint:
		return v.Uint()
	case types.KindFloat:
		return v.F
	}
	return v.String()
}
