package show

import (
	"context"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/txn"
)

// filterWhere keeps the rows of r for which where is true (SHOW ...
// WHERE): where names r's columns, by their names in the result (case
// does not matter), and may use everything an expression can, subqueries
// included.
func filterWhere(ctx context.Context, s *exec.State, x *txn.Txn, r *exec.Result, where ast.ExprNode) (*exec.Result, error) {
	def := &storage.TableDef{}
	for _, c := range r.Columns {
		def.Columns = append(def.Columns, storage.Column{Name: c.Name, Type: c.Type, NotNull: c.NotNull})
	}
	sc := &expr.Scope{DB: s.DB, Funcs: s.Functions(), Sub: s, Table: storage.NewTable(def), Clause: "WHERE"}
	cond, err := sc.Compile(where)
	if err != nil {
		return nil, err
	}
	ec := &expr.Ctx{Env: &s.Env, Context: ctx, Txn: x}
	kept := r.Rows[:0]
	for _, row := range r.Rows {
		ec.Row = row
		ok, err := expr.EvalBool(cond, ec)
		if err != nil {
			return nil, err
		}
		if ok {
			kept = append(kept, row)
		}
	}
	r.Rows = kept
	return r, nil
}
