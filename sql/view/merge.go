package view

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/sysvar"
)

// Mergeable is the view a one-table FROM names when its SELECT can
// merge into the query's (MariaDB's ALGORITHM=MERGE, its choice for an
// UNDEFINED view it can merge): a view one could write through. The query
// then reads the base table by its own access path, the view's WHERE
// added, instead of materializing the whole view. nil: read it as a
// derived table.
func Mergeable(s Host, ts *ast.TableSource) *Target {
	tn, ok := ts.Source.(*ast.TableName)
	if !ok || (tn.Schema.L == "" && s.HasCTE(tn.Name.L)) || s.SQLMode()&sysvar.ModeOnlyFullGroup != 0 {
		return nil // ONLY_FULL_GROUP_BY's check reads the table's own names
	}
	if _, err := s.ResolveTable(tn); err == nil {
		return nil
	}
	alias := ts.AsName.O
	_, vt, err := Resolve(s, tn, alias, "SELECT")
	if err != nil || vt == nil || strings.EqualFold(vt.Cols.Name, vt.Alias) {
		return nil
	}
	return vt
}
