package expr

import (
	"sync"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// strictNumberText is strict mode's check when a number meets a string in
// a comparison inside INSERT or UPDATE: a string that is not a number
// whole is error 1292, as MariaDB reports it, instead of comparing by its
// numeric prefix.
func strictNumberText(l, r types.Value) error {
	for _, p := range [2][2]types.Value{{l, r}, {r, l}} {
		if p[0].IsNumeric() && p[1].K == types.KindString && !types.IsNumberText(p[1].S) {
			return sqlerr.New(sqlerr.ErTruncatedWrongValue, "Truncated incorrect DOUBLE value: '%s'", p[1].S)
		}
	}
	return nil
}

// strictArithText is strict mode's check of an arithmetic operand that is
// a string: one that is not a number whole is error 1292.
func strictArithText(l, r types.Value) error {
	for _, v := range [2]types.Value{l, r} {
		if v.K == types.KindString && !types.IsNumberText(v.S) {
			return sqlerr.New(sqlerr.ErTruncatedWrongValue, "Truncated incorrect DOUBLE value: '%s'", v.S)
		}
	}
	return nil
}

// nullStrict builds an expression of parts that is NULL when any part is
// NULL, else f of their values.
func nullStrict(parts []*Expr, t types.ColType, f func(vs []types.Value) types.Value) *Expr {
	return derived(func(c *Ctx) (types.Value, error) {
		vs, err := evalArgs(c, parts)
		if err != nil {
			return types.Null, err
		}
		for _, v := range vs {
			if v.IsNull() {
				return types.Null, nil
			}
		}
		return f(vs), nil
	}, t, parts...)
}

// strict2 builds a binary expression that evaluates both operands, left
// first, and combines them with f.
func strict2(a, b *Expr, t types.ColType, f func(c *Ctx, l, r types.Value) (types.Value, error)) *Expr {
	return derived(func(c *Ctx) (types.Value, error) {
		l, err := a.Fn(c)
		if err != nil {
			return l, err
		}
		r, err := b.Fn(c)
		if err != nil {
			return r, err
		}
		return f(c, l, r)
	}, t, a, b)
}

var arithOps = map[opcode.Op]types.Op{
	opcode.Plus: types.OpAdd, opcode.Minus: types.OpSub, opcode.Mul: types.OpMul,
	opcode.Div: types.OpDiv, opcode.Mod: types.OpMod, opcode.IntDiv: types.OpIntDiv,
}

func (sc *Scope) compileBinary(x *ast.BinaryOperationExpr) (*Expr, error) {
	a, err := sc.Compile(x.L)
	if err != nil {
		return nil, err
	}
	b, err := sc.Compile(x.R)
	if err != nil {
		return nil, err
	}
	if op, ok := arithOps[x.Op]; ok {
		text := sc.exprMessageText(x)
		e := strict2(a, b, arithResult(op, a, b), func(c *Ctx, l, r types.Value) (types.Value, error) {
			if c.Strict {
				// ''+1 or c+1 on a CHAR holding '' in INSERT/UPDATE: 1292, as
				// MariaDB's strict mode reports it.
				if err := strictArithText(l, r); err != nil {
					return types.Null, err
				}
			}
			v, err := types.Arith(op, l, r)
			if re, ok := err.(*types.RangeError); ok {
				return v, sqlerr.New(sqlerr.ErDataOutOfRange, "%s value is out of range in '%s'", re.What, text())
			}
			if err == nil && v.IsNull() && !l.IsNull() && !r.IsNull() &&
				(op == types.OpDiv || op == types.OpIntDiv || op == types.OpMod) {
				return v, c.divisionByZero()
			}
			return v, err
		})
		if op == types.OpDiv || op == types.OpIntDiv || op == types.OpMod {
			e.NotNull = false // x/0 is NULL
		}
		return e, nil
	}
	if e, ok := compileBitBinary(x.Op, a, b); ok {
		return e, nil
	}
	switch x.Op {
	case opcode.LogicAnd:
		return derived(func(c *Ctx) (types.Value, error) {
			l, err := a.Fn(c)
			if err != nil {
				return l, err
			}
			lt, lk := l.Truthy()
			if lk && !lt {
				return BoolValue(false), nil
			}
			r, err := b.Fn(c)
			if err != nil {
				return r, err
			}
			rt, rk := r.Truthy()
			if rk && !rt {
				return BoolValue(false), nil
			}
			if !lk || !rk {
				return types.Null, nil
			}
			return BoolValue(true), nil
		}, TBool, a, b), nil
	case opcode.LogicOr:
		return derived(func(c *Ctx) (types.Value, error) {
			l, err := a.Fn(c)
			if err != nil {
				return l, err
			}
			lt, lk := l.Truthy()
			if lk && lt {
				return BoolValue(true), nil
			}
			r, err := b.Fn(c)
			if err != nil {
				return r, err
			}
			rt, rk := r.Truthy()
			if rk && rt {
				return BoolValue(true), nil
			}
			if !lk || !rk {
				return types.Null, nil
			}
			return BoolValue(false), nil
		}, TBool, a, b), nil
	case opcode.LogicXor:
		return strict2(a, b, TBool, func(c *Ctx, l, r types.Value) (types.Value, error) {
			lt, lk := l.Truthy()
			rt, rk := r.Truthy()
			if !lk || !rk {
				return types.Null, nil
			}
			return BoolValue(lt != rt), nil
		}), nil
	case opcode.EQ, opcode.NE, opcode.LT, opcode.LE, opcode.GT, opcode.GE, opcode.NullEQ:
		op := x.Op
		a, b := JSONComparable(a, b)
		e := strict2(a, b, TBool, func(c *Ctx, l, r types.Value) (types.Value, error) {
			if op == opcode.NullEQ {
				if l.IsNull() || r.IsNull() {
					return BoolValue(l.IsNull() && r.IsNull()), nil
				}
				return BoolValue(types.Compare(l, r) == 0), nil
			}
			if l.IsNull() || r.IsNull() {
				return types.Null, nil
			}
			if c.Strict {
				if err := strictNumberText(l, r); err != nil {
					return types.Null, err
				}
			}
			cmp := types.Compare(l, r)
			var res bool
			switch op {
			case opcode.EQ:
				res = cmp == 0
			case opcode.NE:
				res = cmp != 0
			case opcode.LT:
				res = cmp < 0
			case opcode.LE:
				res = cmp <= 0
			case opcode.GT:
				res = cmp > 0
			default:
				res = cmp >= 0
			}
			return BoolValue(res), nil
		})
		if op == opcode.NullEQ {
			e.NotNull = true
		}
		return e, nil
	}
	return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support the operator '%s'", x.Op.String())
}

// exprMessageText renders an arithmetic expression for a 1690 message with
// qualified column names, as MariaDB does: '`test`.`t`.`c` - 1'. It is
// rendered only when the message is needed: rendering every operator's
// subtree while compiling made SELECT 1+1+...+1 quadratic in time and
// memory (40,000 terms took minutes and gigabytes).
func (sc *Scope) exprMessageText(x ast.ExprNode) func() string {
	var db, table string
	if sc.Table != nil {
		db, table = sc.Table.Def.DB, sc.Table.Def.Name
	}
	var once sync.Once
	var text string
	return func() string {
		once.Do(func() {
			if table == "" {
				text = ExprText(x)
				return
			}
			// The qualifier edits the shared AST for the time of one
			// rendering; messageTextMu keeps two renderings apart.
			messageTextMu.Lock()
			defer messageTextMu.Unlock()
			q := qualifier{db: db, table: table}
			x.Accept(&q)
			text = ExprText(x)
			q.restore()
		})
		return text
	}
}

var messageTextMu sync.Mutex

// qualifier temporarily fills in schema and table of column names so an
// expression restores fully qualified; restore puts them back.
type qualifier struct {
	db, table string
	changed   []*ast.ColumnName
}

func (q *qualifier) Enter(n ast.Node) (ast.Node, bool) {
	if c, ok := n.(*ast.ColumnName); ok && c.Table.L == "" {
		c.Schema = ast.NewCIStr(q.db)
		c.Table = ast.NewCIStr(q.table)
		q.changed = append(q.changed, c)
	}
	return n, false
}

func (q *qualifier) Leave(n ast.Node) (ast.Node, bool) { return n, true }

func (q *qualifier) restore() {
	for _, c := range q.changed {
		c.Schema, c.Table = ast.CIStr{}, ast.CIStr{}
	}
}

func (sc *Scope) compileUnary(x *ast.UnaryOperationExpr) (*Expr, error) {
	a, err := sc.Compile(x.V)
	if err != nil {
		return nil, err
	}
	switch x.Op {
	case opcode.Minus:
		t := negateResult(a)
		e := derived(func(c *Ctx) (types.Value, error) {
			v, err := a.Fn(c)
			if err != nil {
				return v, err
			}
			r, err := types.Negate(v)
			if re, ok := err.(*types.RangeError); ok {
				return r, sqlerr.New(sqlerr.ErDataOutOfRange, "%s value is out of range in '%s'", re.What, ExprText(x))
			}
			return r, err
		}, t, a)
		if v, ok := a.Literal(); ok && v.IsNumeric() {
			e.negLiteral = true
			if a.Type.Base == types.TDecimal {
				e.Type = a.Type // -1.50 is as long as 1.50: the literal has room for a sign
			}
		}
		return e, nil
	case opcode.Plus:
		return a, nil
	case opcode.BitNeg:
		return compileBitNeg(a), nil
	case opcode.Not, opcode.Not2:
		return derived(func(c *Ctx) (types.Value, error) {
			v, err := a.Fn(c)
			if err != nil {
				return v, err
			}
			t, known := v.Truthy()
			if !known {
				return types.Null, nil
			}
			return BoolValue(!t), nil
		}, TBool, a), nil
	}
	return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support the operator '%s'", x.Op.String())
}
