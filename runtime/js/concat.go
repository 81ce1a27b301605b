package js

import (
	"reflect"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/token"
)

// concatGlobal is the function every string-building expression of a
// body goes through. goja's `+` joins two strings in one Go
// concatenation with no way to refuse, so `s += s` in a loop doubled past
// any budget between two samples of the heap watch: four such procedures
// at once grew the heap to 4 GB against 32 MB budgets, and the multi-
// hundred-megabyte copies, which the Go scheduler cannot preempt, held
// the collector's stop-the-world for seconds while every other session
// of the server waited (TestHostileSoak: point reads at p99 14 s).
// rewriteConcat wraps each `a + b`, `x += y` and untagged template
// literal as concatGlobal(...), which passes numbers straight through and
// interrupts the VM with 3170 when a string result is larger than the
// CALL's memory budget has left, so a doubling loop stops one step past
// its budget. A script that shadows the name changes only its own
// expressions.
const concatGlobal = "__plrun_concat"

// smallString is the length (in UTF-16 units) up to which a result is
// not checked: the heap watch covers what small steps accumulate.
const smallString = 1 << 16

// concat is concatGlobal: its one argument is the expression's value.
func (v *vm) concat(call goja.FunctionCall) goja.Value {
	val := call.Argument(0)
	s, ok := val.(goja.String)
	if !ok || s.Length() <= smallString {
		return val
	}
	// A JavaScript string is UTF-16: two bytes a unit, as budget.go counts.
	if err := v.budget().Fits(2 * int64(s.Length())); err != nil {
		v.r.Interrupt(err)
	}
	return val
}

// rewriteConcat rewrites prog in place (see concatGlobal).
func rewriteConcat(prog *ast.Program) {
	w := concatWalker{done: map[ast.Expression]ast.Expression{}, seen: map[seenNode]bool{}}
	w.walk(reflect.ValueOf(prog))
}

// concatWalker visits every node of a goja AST by reflection (goja/ast
// has no visitor), replacing string-building expressions held in fields
// and slices of type ast.Expression. done maps each expression already
// seen to what replaces it, so a node reached twice is wrapped once, and
// seen holds every node walked, so none is walked twice.
type concatWalker struct {
	done map[ast.Expression]ast.Expression
	seen map[seenNode]bool
}

// seenNode is a node walked: its address and type (a struct and its first
// field share an address).
type seenNode struct {
	p uintptr
	t reflect.Type
}

var expressionType = reflect.TypeFor[ast.Expression]()

func (w *concatWalker) walk(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if n := (seenNode{v.Pointer(), v.Type()}); !v.IsNil() && !w.seen[n] {
			w.seen[n] = true
			w.walk(v.Elem())
		}
	case reflect.Interface:
		if !v.IsNil() {
			w.walk(v.Elem())
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if f := v.Field(i); f.CanSet() {
				w.visit(f)
			}
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			w.visit(v.Index(i))
		}
	}
}

// visit walks f and, if f holds an expression, replaces it.
func (w *concatWalker) visit(f reflect.Value) {
	if f.Type() != expressionType || f.IsNil() {
		w.walk(f)
		return
	}
	e := f.Interface().(ast.Expression)
	if r, ok := w.done[e]; ok {
		f.Set(reflect.ValueOf(r))
		return
	}
	w.done[e] = e
	w.walk(f)
	r := e
	if builds(e) {
		r = &ast.CallExpression{
			Callee:           &ast.Identifier{Name: concatGlobal, Idx: e.Idx0()},
			LeftParenthesis:  e.Idx0(),
			ArgumentList:     []ast.Expression{e},
			RightParenthesis: e.Idx1() - 1,
		}
	}
	w.done[e], w.done[r] = r, r
	f.Set(reflect.ValueOf(r))
}

// builds reports whether e may build a new string from others.
func builds(e ast.Expression) bool {
	switch x := e.(type) {
	case *ast.BinaryExpression:
		return x.Operator == token.PLUS
	case *ast.AssignExpression:
		return x.Operator == token.PLUS // x += y
	case *ast.TemplateLiteral:
		return x.Tag == nil && len(x.Expressions) > 0
	}
	return false
}
