package callout

import (
	"sync"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/types"
)

// OutParams is what a prepared CALL returns for its OUT and INOUT
// arguments given as ?: as MariaDB sends it, one row whose columns are
// those parameters, named and typed as the procedure declares them.
func OutParams(db string, def *procs.Definition, args []int, outs []any) *exec.Result {
	r := &exec.Result{OutParams: true, Rows: [][]types.Value{make([]types.Value, len(args))}}
	for j, i := range args {
		prm := def.Params[i]
		r.Columns = append(r.Columns, exec.Column{Name: prm.Name, OrgName: prm.Name, Table: def.Name, OrgTable: def.Name, DB: db, Type: DeclaredType(prm.Type)})
		var v types.Value
		if i < len(outs) {
			v, _ = GoValue(outs[i])
		}
		r.Rows[0][j] = v
	}
	return r
}

// declaredTypes caches DeclaredType: a procedure's parameter types are few.
var declaredTypes sync.Map // string -> types.ColType

// DeclaredType is the column type of a parameter's declared SQL type
// ("INT", "DECIMAL(12,2)"), read by the same parser as CREATE TABLE; a
// type it cannot read is a VARCHAR.
func DeclaredType(sqlType string) types.ColType {
	if t, ok := declaredTypes.Load(sqlType); ok {
		return t.(types.ColType)
	}
	t := types.ColType{Base: types.TVarchar, Length: 255}
	if p, err := parse.Parse("CREATE TABLE t (c "+sqlType+")", 0); err == nil {
		if ct, ok := p.Node.(*ast.CreateTableStmt); ok && len(ct.Cols) == 1 {
			if ctype, err := parse.ColType(ct.Cols[0]); err == nil {
				t = ctype
			}
		}
	}
	declaredTypes.Store(sqlType, t)
	return t
}
