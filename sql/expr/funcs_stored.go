package expr

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// StoredFunction is a stored function (CREATE FUNCTION) as a statement
// that names it is compiled against: resolved once per plan, at build
// (CREATE/DROP FUNCTION change the schema epoch, so plans that named a
// function are rebuilt).
type StoredFunction struct {
	DB, Name string
	NParams  int
	Returns  types.ColType
	// Impl is the session layer's compiled form of the function; expr
	// only hands it back to CallStoredFunction.
	Impl any
}

// FunctionHost resolves and runs stored functions for expressions. The
// sql layer implements it (sql.Session), as part of Host.
type FunctionHost interface {
	// StoredFunction resolves db.name when a statement is compiled; nil
	// and no error when there is none.
	StoredFunction(db, name string) (*StoredFunction, error)
	// CallStoredFunction evaluates f for one row; call is the call as
	// written, which MariaDB's conversion messages name.
	CallStoredFunction(c *Ctx, f *StoredFunction, call string, args []types.Value) (types.Value, error)
}

// Functions is the session's stored-function resolver, for Scope.Funcs.
func (s *Env) Functions() FunctionHost { return s.owner }

// compileStoredCall compiles x as a call of a stored function; a built-in
// of the same name wins unless x names a database (db.f(...)), as in MySQL.
func (sc *Scope) compileStoredCall(x *ast.FuncCallExpr, args []*Expr) (*Expr, error) {
	db, name := x.Schema.O, x.FnName.O
	if db == "" {
		db = sc.DB
	}
	notExist := func() error {
		if db == "" {
			return sqlerr.New(sqlerr.ErSPDoesNotExist, "FUNCTION %s does not exist", name)
		}
		return sqlerr.New(sqlerr.ErSPDoesNotExist, "FUNCTION %s.%s does not exist", db, name)
	}
	if sc.Funcs == nil || db == "" {
		return nil, notExist()
	}
	f, err := sc.Funcs.StoredFunction(db, name)
	if err != nil {
		return nil, err
	}
	if f == nil {
		return nil, notExist()
	}
	if len(args) != f.NParams {
		return nil, sqlerr.New(sqlerr.ErSPWrongNoOfArgs,
			"Incorrect number of arguments for FUNCTION %s.%s; expected %d, got %d", f.DB, f.Name, f.NParams, len(args))
	}
	text := RestoreString(x)
	return &Expr{Col: -1, param: -1, Type: f.Returns, Fn: func(c *Ctx) (types.Value, error) {
		if c.Env == nil || c.Env.owner == nil {
			return types.Null, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support stored functions here")
		}
		vs, err := evalArgs(c, args)
		if err != nil {
			return types.Null, err
		}
		return c.Env.owner.CallStoredFunction(c, f, text, vs)
	}}, nil
}

// IsBuiltinFunction reports whether name(...) is a built-in function,
// which a stored function of the same name does not shadow.
func IsBuiltinFunction(name string) (builtin bool) {
	defer func() {
		// A family may look at arguments it expects; none are given here.
		if recover() != nil {
			builtin = true
		}
	}()
	x := &ast.FuncCallExpr{FnName: ast.NewCIStr(name)}
	f := &Call{X: x, Name: x.FnName.L}
	for _, family := range funcFamilies {
		if e, err := family(f); e != nil || err != nil {
			return true
		}
	}
	return false
}
