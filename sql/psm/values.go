package psm

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// varType is a declared type (parse.TypeOf), its error naming the text.
func varType(text string) (types.ColType, error) {
	t, err := parse.TypeOf(text)
	if err != nil {
		return t, fmt.Errorf("type %q: %v", text, err)
	}
	return t, nil
}

// assign converts v to a variable's declared type, as MySQL stores a value
// into a local variable (a column-like conversion; out of range or not a
// number is an error under the strict modes plrun runs in).
func assign(v types.Value, t types.ColType, name string) (types.Value, error) {
	if v.IsNull() {
		return v, nil
	}
	out, err := types.Coerce(v, t)
	if err != nil {
		var ce *types.CoerceError
		if errors.As(err, &ce) {
			switch ce.Code {
			case 1264:
				return types.Null, newErr(1264, "22003", "Out of range value for column '%s' at row 0", name)
			case 1406:
				return types.Null, newErr(1406, "22001", "Data too long for column '%s' at row 0", name)
			case 1265: // no ENUM or SET member
				return types.Null, newErr(1265, "01000", "Data truncated for column '%s' at row 1", name) // MariaDB says row 1 here
			}
		}
		if e, ok := sqlerr.As(err); ok {
			return types.Null, e
		}
		return types.Null, newErr(1366, "22007", "Incorrect %s value: '%s' for column `%s` at row 0", typeWord(t), v.String(), name)
	}
	return out, nil
}

func typeWord(t types.ColType) string {
	switch t.Base {
	case types.TDecimal:
		return "decimal"
	case types.TFloat, types.TDouble:
		return "double"
	case types.TTinyInt, types.TSmallInt, types.TMediumInt, types.TInt, types.TBigInt:
		return "integer"
	}
	return "string"
}

// hostArg is a value as procs.Host.Exec takes placeholder arguments.
func hostArg(v types.Value) any {
	switch v.K {
	case types.KindNull:
		return nil
	case types.KindInt:
		return v.I
	case types.KindUint:
		if v.IsBit() {
			return v // a BIT keeps printing as its bytes
		}
		return v.Uint()
	case types.KindFloat:
		return v.F
	case types.KindTime:
		return types.FormatTime(v.Time(), 6)
	case types.KindString:
		if v.P != 0 {
			// a byte string, ENUM or SET keeps its mark and number: the
			// host takes a types.Value as it is
			return v
		}
	}
	return v.String()
}

// fromHost is a value of a procs.Result row as a Value.
func fromHost(x any) types.Value {
	switch v := x.(type) {
	case nil:
		return types.Null
	case int64:
		return types.IntValue(v)
	case uint64:
		return types.UintValue(v)
	case float64:
		return types.FloatValue(v)
	case bool:
		if v {
			return types.IntValue(1)
		}
		return types.IntValue(0)
	case int:
		return types.IntValue(int64(v))
	case string:
		return types.StringValue(v)
	case []byte:
		return types.StringValue(string(v))
	}
	return types.StringValue(fmt.Sprint(x))
}

// goValue is a Value as procs.Program.Call returns OUT parameters.
func goValue(v types.Value) any {
	switch {
	case v.K == types.KindString:
		return v.String()
	case v.IsBit():
		return v.Uint()
	}
	return hostArg(v)
}

// fromGo is a CALL argument (already converted to its parameter's type by
// procs) as a Value.
func fromGo(x any) types.Value {
	if s, ok := x.(string); ok {
		if _, err := strconv.ParseInt(s, 10, 64); err == nil {
			return types.StringValue(s)
		}
	}
	return fromHost(x)
}
