package psm

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// varType parses a declared type ("INT", "DECIMAL(12,2)", "VARCHAR(20)")
// into the ColType assignments convert to. It reads the type through the
// TiDB parser as a column definition, so it takes what a table column
// takes.
func varType(text string) (types.ColType, error) {
	st, err := parse.ParseOne("CREATE TABLE t (c " + text + ")")
	if err != nil {
		return types.ColType{}, fmt.Errorf("type %q: %w", text, err)
	}
	ct, ok := st.(*ast.CreateTableStmt)
	if !ok || len(ct.Cols) != 1 || len(ct.Cols[0].Options) > 0 {
		return types.ColType{}, fmt.Errorf("type %q", text)
	}
	ft := ct.Cols[0].Tp
	flen, dec := ft.GetFlen(), ft.GetDecimal()
	t := types.ColType{Unsigned: mysql.HasUnsignedFlag(ft.GetFlag())}
	switch ft.GetType() {
	case mysql.TypeTiny:
		t.Base = types.TTinyInt
	case mysql.TypeShort:
		t.Base = types.TSmallInt
	case mysql.TypeInt24:
		t.Base = types.TMediumInt
	case mysql.TypeLong:
		t.Base = types.TInt
	case mysql.TypeLonglong:
		t.Base = types.TBigInt
	case mysql.TypeNewDecimal:
		t.Base = types.TDecimal
		if flen <= 0 {
			flen = 10
		}
		if dec < 0 {
			dec = 0
		}
		if flen > 65 || dec > 30 || dec > flen {
			return t, fmt.Errorf("type %q: bad precision", text)
		}
		t.Length, t.Scale = flen, dec
	case mysql.TypeFloat:
		t.Base = types.TFloat
	case mysql.TypeDouble:
		t.Base = types.TDouble
	case mysql.TypeString:
		t.Base = types.TChar
		if flen < 0 {
			flen = 1
		}
		t.Length = flen
	case mysql.TypeVarchar, mysql.TypeVarString:
		t.Base = types.TVarchar
		if flen < 0 {
			return t, fmt.Errorf("type %q: VARCHAR needs a length", text)
		}
		t.Length = flen
	case mysql.TypeBlob, mysql.TypeTinyBlob, mysql.TypeMediumBlob, mysql.TypeLongBlob:
		t.Base = types.TText
	case mysql.TypeDatetime:
		t.Base = types.TDatetime
		t.Scale = max(dec, 0)
	case mysql.TypeTimestamp:
		t.Base = types.TTimestamp
		t.Scale = max(dec, 0)
	case mysql.TypeDate:
		t.Base = types.TDate
	default:
		return t, fmt.Errorf("type %q is not supported for variables", text)
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
		return v.Uint()
	case types.KindFloat:
		return v.F
	case types.KindTime:
		return types.FormatTime(v.Time(), 6)
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
func goValue(v types.Value) any { return hostArg(v) }

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
