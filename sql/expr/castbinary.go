package expr

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/pingcap/tidb/pkg/parser/types"

	"github.com/plrun/plrun/sqlerr"
	plt "github.com/plrun/plrun/types"
)

// isBinaryCast reports CAST(x AS BINARY[(n)]), CONVERT(x, BINARY),
// BINARY x and CAST(x AS CHAR CHARACTER SET binary): a byte string.
func isBinaryCast(ft *types.FieldType) bool {
	switch ft.GetType() {
	case mysql.TypeString, mysql.TypeVarchar, mysql.TypeVarString, mysql.TypeBlob:
		return ft.GetCharset() == "binary"
	}
	return false
}

// binaryCast is x's bytes as a byte string (a number or date as it
// prints); with a length n, cut or padded with 0x00 to n bytes, as MySQL
// does for CAST(x AS BINARY(n)).
func binaryCast(a *Expr, ft *types.FieldType) *Expr {
	n := ft.GetFlen()
	t := plt.ColType{Base: plt.TVarbinary, Length: max(n, a.Type.MaxBytes())}
	if !a.Type.IsString() {
		t.Length = max(t.Length, charLength(a.Type)) // a number or date: as long as it prints
	}
	if n >= 0 {
		t = plt.ColType{Base: plt.TBinary, Length: n}
	}
	return derived(func(c *Ctx) (plt.Value, error) {
		v, err := a.Fn(c)
		if err != nil || v.IsNull() {
			return v, err
		}
		s := v.String()
		if n >= 0 {
			if len(s) > n {
				c.warn(sqlerr.Note{Level: "Warning", Code: sqlerr.ErTruncatedWrongValue,
					Message: fmt.Sprintf("Truncated incorrect BINARY(%d) value: '%s'", n, s)})
				s = s[:n]
			} else {
				s += strings.Repeat("\x00", n-len(s))
			}
		}
		return plt.BytesValue(s), nil
	}, t, a)
}
