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

// Call is a built-in function call being compiled: what each family's
// compiler reads.
type Call struct {
	X    *ast.FuncCallExpr
	Name string // lower case
	Args []*Expr
}

// NArgs checks the argument count: error 1582 outside [min, max] (max -1
// is no limit).
func (f *Call) NArgs(min, max int) error {
	if n := len(f.Args); n < min || (max >= 0 && n > max) {
		return wrongArgs(strings.ToUpper(f.Name))
	}
	return nil
}

// Mk is the function over its evaluated arguments, of type t.
func (f *Call) Mk(t types.ColType, fn func(c *Ctx, vs []types.Value) (types.Value, error)) *Expr {
	args := f.Args
	return derived(func(c *Ctx) (types.Value, error) {
		vs, err := evalArgs(c, args)
		if err != nil {
			return types.Null, err
		}
		return fn(c, vs)
	}, t, args...)
}

// AnyNull reports whether one of vs is NULL.
func AnyNull(vs []types.Value) bool {
	for _, v := range vs {
		if v.IsNull() {
			return true
		}
	}
	return false
}

// Family compiles the built-in functions of one family; it returns nil,
// nil for a name it does not have.
type Family func(f *Call) (*Expr, error)

// funcFamilies compile the built-in functions, a family to a file, in
// the order sql/funcs and sql/jsonfuncs add them with RegisterFamily.
var funcFamilies []Family

// RegisterFamily adds a family of built-in functions; called from the
// init of the package that has it (sql/funcs, sql/jsonfuncs), before any
// statement.
func RegisterFamily(f Family) { funcFamilies = append(funcFamilies, f) }

func (sc *Scope) compileFunc(x *ast.FuncCallExpr) (*Expr, error) {
	args, err := sc.compileArgs(x.Args)
	if err != nil {
		return nil, err
	}
	if x.Schema.O != "" {
		return sc.compileStoredCall(x, args)
	}
	f := &Call{X: x, Name: x.FnName.L, Args: args}
	for _, family := range funcFamilies {
		if e, err := family(f); e != nil || err != nil {
			if e != nil {
				describeFunc(f, e)
			}
			return e, err
		}
	}
	return sc.compileStoredCall(x, args)
}

// Derived builds an Expr computed from parts (constant when they all are).
func Derived(fn func(c *Ctx) (types.Value, error), t types.ColType, parts ...*Expr) *Expr {
	return derived(fn, t, parts...)
}

// Literal reports whether e is a literal written in the statement, and
// its value (a format or pattern then compiles once).
func (e *Expr) Literal() (types.Value, bool) {
	if !e.literal {
		return types.Null, false
	}
	v, err := e.Fn(&Ctx{})
	return v, err == nil
}

// Warn keeps a warning of the running statement (SHOW WARNINGS).
func (c *Ctx) Warn(n sqlerr.Note) { c.warn(n) }

// OverPacket reports whether a result of n bytes passes max_allowed_packet
// (warning 1301; the result is then NULL).
func (c *Ctx) OverPacket(fn string, n int64) bool { return c.overPacket(fn, n) }

// SaturatingInt reads an integer argument, clamped rather than wrapped.
func SaturatingInt(v types.Value) int64 { return saturatingInt(v) }

// TDatetime is the type of a DATETIME result without fractional digits.
var TDatetime = tDatetime

// Operators whose evaluation lives with the functions in sql/funcs, set
// by its init: s [NOT] REGEXP p, and how a JSON function's result
// compares with a plain value.
var (
	RegexpOp       func(s, p *Expr, not bool) (*Expr, error)
	JSONComparable = func(a, b *Expr) (*Expr, *Expr) { return a, b }
)

// DivisionByZero is what x/0 gives besides its NULL (divzero.go); LN(0)
// and LOG of a number not above 0 give the same in MariaDB.
func (c *Ctx) DivisionByZero() error { return c.divisionByZero() }

// ArithResult is the result type of a op b, for functions that compute
// as an operator does (MOD).
func ArithResult(op types.Op, a, b *Expr) types.ColType { return arithResult(op, a, b) }
