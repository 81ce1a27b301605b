package expr

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

func (sc *Scope) compileArgs(args []ast.ExprNode) ([]*Expr, error) {
	out := make([]*Expr, len(args))
	for i, a := range args {
		var err error
		if out[i], err = sc.Compile(a); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func evalArgs(c *Ctx, args []*Expr) ([]types.Value, error) {
	vs := make([]types.Value, len(args))
	for i, a := range args {
		v, err := a.Fn(c)
		if err != nil {
			return nil, err
		}
		vs[i] = v
	}
	return vs, nil
}

func wrongArgs(name string) error {
	return sqlerr.New(sqlerr.ErWrongArgCount, "Incorrect parameter count in the call to native function '%s'", name)
}

// compileFunc handles scalar functions.
// call is a built-in function call being compiled: what each family's
// compiler reads.
type call struct {
	sc   *Scope
	x    *ast.FuncCallExpr
	name string
	args []*Expr
}

// nargs checks the argument count: error 1582 outside [min, max] (max -1
// is no limit).
func (f *call) nargs(min, max int) error {
	if n := len(f.args); n < min || (max >= 0 && n > max) {
		return wrongArgs(strings.ToUpper(f.name))
	}
	return nil
}

// mk is the function over its evaluated arguments, of type t.
func (f *call) mk(t types.ColType, fn func(c *Ctx, vs []types.Value) (types.Value, error)) *Expr {
	args := f.args
	return derived(func(c *Ctx) (types.Value, error) {
		vs, err := evalArgs(c, args)
		if err != nil {
			return types.Null, err
		}
		return fn(c, vs)
	}, t, args...)
}

func anyNull(vs []types.Value) bool {
	for _, v := range vs {
		if v.IsNull() {
			return true
		}
	}
	return false
}

// funcFamilies compile the built-in functions, a family to a file
// (funcs_time.go, funcs_session.go, funcs_string.go, funcs_math.go,
// funcs_control.go): a new function is one case in one of them. A family
// returns nil, nil for a name it does not have.
var funcFamilies = []func(f *call) (*Expr, error){timeFunc, sessionFunc, stringFunc, textFunc, regexpFunc, uuidFunc, jsonFunc, mathFunc, controlFunc}

func (sc *Scope) compileFunc(x *ast.FuncCallExpr) (*Expr, error) {
	args, err := sc.compileArgs(x.Args)
	if err != nil {
		return nil, err
	}
	if x.Schema.O != "" {
		return sc.compileStoredCall(x, args)
	}
	f := &call{sc: sc, x: x, name: x.FnName.L, args: args}
	for _, family := range funcFamilies {
		if e, err := family(f); e != nil || err != nil {
			return e, err
		}
	}
	return sc.compileStoredCall(x, args)
}
