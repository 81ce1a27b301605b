package tabledef

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
)

// nonDeterministic are the functions MariaDB refuses in a CHECK (1901),
// with the name its message prints.
var nonDeterministic = map[string]string{
	"rand": "rand()", "now": "current_timestamp()", "current_timestamp": "current_timestamp()",
	"localtime": "current_timestamp()", "localtimestamp": "current_timestamp()", "sysdate": "sysdate()",
	"curdate": "curdate()", "current_date": "curdate()", "curtime": "curtime()", "current_time": "curtime()",
	"utc_timestamp": "utc_timestamp()", "utc_date": "utc_date()", "utc_time": "utc_time()",
	"unix_timestamp": "unix_timestamp()", "uuid": "uuid()", "uuid_short": "uuid_short()",
	"connection_id": "connection_id()", "user": "user()", "current_user": "current_user()",
	"session_user": "session_user()", "system_user": "system_user()", "database": "database()",
	"schema": "database()", "last_insert_id": "last_insert_id()", "found_rows": "found_rows()",
	"row_count": "row_count()", "sleep": "sleep()", "get_lock": "get_lock()", "release_lock": "release_lock()",
	"benchmark": "benchmark()", "version": "version()",
}

// checkAllowed refuses what MariaDB refuses in a CHECK named name: a
// subquery (1970), a function whose value is not the row's alone or a
// variable (1901). A stored function is refused when compiled
// (checkFuncs).
func checkAllowed(e ast.ExprNode, name string) error {
	v := &checkVisitor{}
	e.Accept(v)
	switch {
	case v.subquery:
		return errCheckSubquery()
	case v.what != "":
		return sqlerr.New(sqlerr.ErCheckNotAllowed, "Function or expression '%s' cannot be used in the CHECK clause of `%s`", v.what, name)
	}
	return nil
}

func errCheckSubquery() error {
	return sqlerr.New(sqlerr.ErCheckSubquery, "CHECK does not support subqueries or stored functions")
}

type checkVisitor struct {
	subquery bool
	what     string
}

func (v *checkVisitor) Enter(n ast.Node) (ast.Node, bool) {
	if v.subquery || v.what != "" {
		return n, true
	}
	switch x := n.(type) {
	case *ast.SubqueryExpr, *ast.ExistsSubqueryExpr:
		v.subquery = true
	case *ast.FuncCallExpr:
		if x.Schema.O != "" {
			v.subquery = true
		} else if w, ok := nonDeterministic[x.FnName.L]; ok {
			v.what = w
		}
	case *ast.VariableExpr:
		if x.IsSystem {
			v.what = "@@" + x.Name
		} else {
			v.what = "@" + x.Name
		}
	}
	return n, false
}

func (v *checkVisitor) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// checkFuncs resolves stored functions for a CHECK being created: one
// that exists is MariaDB's 1970, one that does not its 1305.
type checkFuncs struct{ inner expr.FunctionHost }

func (f checkFuncs) StoredFunction(db, name string) (*expr.StoredFunction, error) {
	if f.inner == nil {
		return nil, nil
	}
	sf, err := f.inner.StoredFunction(db, name)
	if err != nil || sf == nil {
		return nil, err
	}
	return nil, errCheckSubquery()
}

func (f checkFuncs) CallStoredFunction(*expr.Ctx, *expr.StoredFunction, string, []types.Value) (types.Value, error) {
	return types.Null, errCheckSubquery()
}

// cascadedColumns are def's columns a foreign key action rewrites (ON
// UPDATE CASCADE, SET NULL): MariaDB refuses them in a CHECK, which
// cascades never evaluate. Lower-case names.
func cascadedColumns(def *storage.TableDef) map[string]bool {
	out := map[string]bool{}
	for _, fk := range def.ForeignKeys {
		if fk.OnUpdate == storage.RefCascade || fk.OnUpdate == storage.RefSetNull || fk.OnDelete == storage.RefSetNull {
			for _, c := range fk.Cols {
				out[strings.ToLower(def.Columns[c].Name)] = true
			}
		}
	}
	return out
}

// firstColumnIn is the first column e names that is in cols, or "".
func firstColumnIn(e ast.ExprNode, cols map[string]bool) string {
	if len(cols) == 0 {
		return ""
	}
	v := &columnFinder{cols: cols}
	e.Accept(v)
	return v.found
}

type columnFinder struct {
	cols  map[string]bool
	found string
}

func (v *columnFinder) Enter(n ast.Node) (ast.Node, bool) {
	if c, ok := n.(*ast.ColumnNameExpr); ok && v.found == "" && v.cols[c.Name.Name.L] {
		v.found = c.Name.Name.O
	}
	return n, v.found != ""
}

func (v *columnFinder) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// CheckFuncs is funcs as a CHECK being added sees it (checkFuncs): ALTER
// TABLE ADD CONSTRAINT ... CHECK evaluates the existing rows through it.
func CheckFuncs(funcs expr.FunctionHost) expr.FunctionHost { return checkFuncs{funcs} }
