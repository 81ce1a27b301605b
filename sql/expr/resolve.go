package expr

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sqlerr"
)

// resolveJoined finds a column among the joined tables.
func (sc *Scope) resolveJoined(cn *ast.ColumnName) (*Expr, error) {
	var found *Source
	idx := -1
	for _, jt := range sc.Joined {
		if cn.Table.L != "" && !strings.EqualFold(cn.Table.O, jt.Alias) {
			continue
		}
		if cn.Schema.L != "" && !strings.EqualFold(cn.Schema.O, jt.Table.Def.DB) {
			continue
		}
		if i := jt.Table.Def.ColumnIndex(cn.Name.O); i >= 0 {
			if found != nil {
				return nil, sqlerr.New(sqlerr.ErNonUniq, "Column '%s' in %s is ambiguous", Qualified(cn), sc.ClauseName())
			}
			found, idx = jt, i
		}
	}
	if found == nil {
		return nil, sqlerr.New(sqlerr.ErBadField, "Unknown column '%s' in '%s'", Qualified(cn), sc.ClauseName())
	}
	return ColumnExpr(found.Table.Def, idx, found.Off+idx, found), nil
}
