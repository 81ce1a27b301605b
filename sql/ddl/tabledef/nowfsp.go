package tabledef

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
)

// NowDigits reads the column's DEFAULT / ON UPDATE CURRENT_TIMESTAMP(n)
// digits into col.NowFsp, as MariaDB keeps one precision for both: a
// clause without digits takes the other's, two different ones are 1294,
// and a column's own fraction caps them (DATETIME(1) DEFAULT
// CURRENT_TIMESTAMP(3) is current_timestamp(1)).
func NowDigits(col *storage.Column, cd *ast.ColumnDef) error {
	fsp := 0
	for _, o := range cd.Options {
		if o.Tp != ast.ColumnOptionDefaultValue && o.Tp != ast.ColumnOptionOnUpdate {
			continue
		}
		n := nowCallDigits(o.Expr)
		if n > 0 && fsp > 0 && n != fsp {
			return sqlerr.New(sqlerr.ErInvalidOnUpdate, "Invalid ON UPDATE clause for '%s' column", col.Name)
		}
		fsp = max(fsp, n)
	}
	if col.DefaultNow || col.OnUpdateNow {
		switch col.Type.Base {
		case types.TDatetime, types.TTimestamp:
			col.NowFsp = min(fsp, col.Type.Scale)
		}
	}
	return nil
}

// nowCallDigits is n of CURRENT_TIMESTAMP(n) / NOW(n), or 0.
func nowCallDigits(e ast.ExprNode) int {
	f, ok := e.(*ast.FuncCallExpr)
	if !ok || len(f.Args) != 1 {
		return 0
	}
	v, ok := f.Args[0].(ast.ValueExpr)
	if !ok {
		return 0
	}
	switch n := v.GetValue().(type) {
	case int64:
		return int(min(max(n, 0), 6))
	case uint64:
		return int(min(n, 6))
	}
	return 0
}
