package expr

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/cockroachdb/apd/v3"
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/format"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	"github.com/pingcap/tidb/pkg/parser/test_driver"
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

// evalCtx is what an expression reads while it runs. Compiled expressions
// are shared between sessions; everything per-execution lives here.
type Ctx struct {
	Env  *Env
	Args []types.Value
	Row  []types.Value // the current table row
	Aggs []types.Value // aggregate results of the current group
	// strict is strict mode (STRICT_TRANS_TABLES or STRICT_ALL_TABLES in
	// sql_mode) in INSERT and UPDATE: with ERROR_FOR_DIVISION_BY_ZERO,
	// x/0, x DIV 0 and x % 0 are error 1365 instead of NULL with warning
	// 1365 (divisionByZero), and a string that is not a number, compared
	// with or cast to one, is error 1292.
	Strict bool
	// ctx and x let subqueries run; subq caches the rows of uncorrelated
	// ones for the statement's execution. outer is the enclosing query's
	// row while a correlated subquery runs.
	Context context.Context
	Txn     *txn.Txn
	subq    map[Subquery][][]types.Value
	Outer   []types.Value
	// mem is what this (sub)query execution holds against the statement's
	// memory budget; polls counts rows between looks at ctx (poll.go).
	Mem   *MemAccount
	polls uint32
	// notes are the warnings expressions raised (REPEAT past
	// max_allowed_packet ...), shared with the subqueries' contexts.
	Notes *[]sqlerr.Note
}

// expr is a compiled expression.
type expr func(c *Ctx) (types.Value, error)

// cexpr is a compiled expression with what the planner needs to know.
type Expr struct {
	Fn      expr
	Type    types.ColType
	Col     int  // table column index when the expression is a bare column, else -1
	IsConst bool // no column, no aggregate (params and variables count as constant per execution)
	HasAgg  bool
	param   int // ? index when a bare placeholder, else -1
	text    string
	Source  *Source // the joined table a bare column belongs to (joins only)
}

// aggSpec is one aggregate function found while compiling a grouped query.
type AggSpec struct {
	Name     string // count, sum, avg, min, max
	Arg      *Expr  // nil for COUNT(*)
	Distinct bool
	Type     types.ColType
}

// scope resolves names while compiling.
type Scope struct {
	Table *storage.Table
	Alias string // table name or alias used to qualify columns
	DB    string
	Aggs  *[]AggSpec // where aggregates go; nil = aggregates not allowed here
	// outputs lets ORDER BY / HAVING name select-list aliases.
	Outputs []OutputCol
	inAgg   bool
	// clause names the part of the statement being compiled for 1054
	// ("SELECT", "WHERE", ...), as MariaDB reports it; "" is 'field list'.
	Clause string
	// joined are the tables of a FROM with joins; columns then resolve
	// among them (table is nil).
	Joined []*Source
	// sub plans subqueries; nil where they are not allowed.
	Sub SubqueryPlanner
	// outer is the enclosing query's scope, for a subquery; a column found
	// only there is read from evalCtx.outer and sets *correlated.
	Outer      *Scope
	Correlated *bool
}

// clauseName is where an unknown column is reported to be.
func (sc *Scope) ClauseName() string {
	if sc.Clause == "" {
		return "field list"
	}
	return sc.Clause
}

// source is one table of a FROM with joins, as column names resolve
// against it.
type Source struct {
	Table *storage.Table
	Alias string
	Off   int  // where its columns start in the combined row
	Left  bool // LEFT JOIN: a row with no match keeps NULLs here
}

type OutputCol struct {
	Name string
	Expr *Expr
}

var (
	TBigInt   = types.ColType{Base: types.TBigInt}
	tDouble   = types.ColType{Base: types.TDouble}
	TVarchar  = types.ColType{Base: types.TVarchar, Length: 255}
	tUnknown  = types.ColType{}
	tDatetime = types.ColType{Base: types.TDatetime}
)

func ConstExpr(v types.Value, t types.ColType) *Expr {
	return &Expr{Fn: func(*Ctx) (types.Value, error) { return v, nil }, Type: t, Col: -1, IsConst: true, param: -1}
}

func TypeOfValue(v types.Value) types.ColType {
	switch v.K {
	case types.KindInt:
		return TBigInt
	case types.KindUint:
		return types.ColType{Base: types.TBigInt, Unsigned: true}
	case types.KindFloat:
		return tDouble
	case types.KindDecimal:
		prec := int(v.D.NumDigits())
		scale := 0
		if v.D.Exponent < 0 {
			scale = int(-v.D.Exponent)
		}
		if prec < scale+1 {
			prec = scale + 1
		}
		return types.ColType{Base: types.TDecimal, Length: prec, Scale: scale}
	case types.KindString:
		return TVarchar
	case types.KindTime:
		return tDatetime
	}
	return tUnknown
}

// datumValue converts a parser literal to a Value.
func datumValue(d *test_driver.Datum) (types.Value, error) {
	switch d.Kind() {
	case test_driver.KindNull:
		return types.Null, nil
	case test_driver.KindInt64:
		return types.IntValue(d.GetInt64()), nil
	case test_driver.KindUint64:
		return types.UintValue(d.GetUint64()), nil
	case test_driver.KindFloat32, test_driver.KindFloat64:
		return types.FloatValue(d.GetFloat64()), nil
	case test_driver.KindString, test_driver.KindBytes:
		return types.StringValue(d.GetString()), nil
	case test_driver.KindMysqlDecimal:
		dd, _, err := apd.NewFromString(d.GetMysqlDecimal().String())
		if err != nil {
			return types.Null, err
		}
		return types.DecimalValue(dd), nil
	case test_driver.KindBinaryLiteral:
		return types.StringValue(string(d.GetBytes())), nil
	}
	return types.Null, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support this literal")
}

// exprText restores an expression as MySQL prints it in messages.
func ExprText(n ast.Node) string {
	var sb strings.Builder
	ctx := format.NewRestoreCtx(format.RestoreStringSingleQuotes|format.RestoreKeyWordLowercase|format.RestoreNameBackQuotes|format.RestoreSpacesAroundBinaryOperation, &sb)
	if err := n.Restore(ctx); err != nil {
		return "?"
	}
	return sb.String()
}

// columnLabel is the name a select-list expression gets without an alias:
// the expression as written (MySQL uses the original text).
func ColumnLabel(n ast.ExprNode) string {
	if c, ok := n.(*ast.ColumnNameExpr); ok {
		return c.Name.Name.O
	}
	if t := n.OriginalText(); t != "" {
		return t
	}
	return ExprText(n)
}

func (sc *Scope) ResolveColumn(cn *ast.ColumnName) (*Expr, error) {
	e, err := sc.resolveLocal(cn)
	if err == nil || sc.Outer == nil {
		return e, err
	}
	// Only the immediately enclosing query's own columns: a reference two
	// levels out is not supported.
	oe, oerr := sc.Outer.resolveLocal(cn)
	if oerr != nil {
		return nil, err
	}
	if sc.Correlated != nil {
		*sc.Correlated = true
	}
	// The enclosing query's column is a constant while the subquery runs.
	return &Expr{Fn: func(c *Ctx) (types.Value, error) {
		if c.Outer == nil {
			return types.Null, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support this correlated subquery")
		}
		saved, savedOuter := c.Row, c.Outer
		c.Row, c.Outer = c.Outer, nil
		v, err := oe.Fn(c)
		c.Row, c.Outer = saved, savedOuter
		return v, err
	}, Type: oe.Type, Col: -1, IsConst: true, param: -1, text: oe.text}, nil
}

// resolveLocal finds a column among the scope's own table(s).
func (sc *Scope) resolveLocal(cn *ast.ColumnName) (*Expr, error) {
	name := cn.Name.O
	if sc.Joined != nil {
		return sc.resolveJoined(cn)
	}
	if sc.Table == nil {
		return nil, sqlerr.New(sqlerr.ErBadField, "Unknown column '%s' in '%s'", Qualified(cn), sc.ClauseName())
	}
	if cn.Table.L != "" && !strings.EqualFold(cn.Table.O, sc.Alias) {
		return nil, sqlerr.New(sqlerr.ErBadField, "Unknown column '%s' in '%s'", Qualified(cn), sc.ClauseName())
	}
	if cn.Schema.L != "" && !strings.EqualFold(cn.Schema.O, sc.Table.Def.DB) {
		return nil, sqlerr.New(sqlerr.ErBadField, "Unknown column '%s' in '%s'", Qualified(cn), sc.ClauseName())
	}
	i := sc.Table.Def.ColumnIndex(name)
	if i < 0 {
		return nil, sqlerr.New(sqlerr.ErBadField, "Unknown column '%s' in '%s'", Qualified(cn), sc.ClauseName())
	}
	return ColumnExpr(sc.Table.Def, i, i, nil), nil
}

// columnExpr reads column idx of def from position pos of the current row
// (pos differs from idx in a joined row, whose table jt then is).
func ColumnExpr(def *storage.TableDef, idx, pos int, jt *Source) *Expr {
	col := def.Columns[idx]
	return &Expr{
		Fn:     func(c *Ctx) (types.Value, error) { return c.Row[pos], nil },
		Type:   col.Type,
		Col:    idx,
		param:  -1,
		Source: jt,
		text:   fmt.Sprintf("`%s`.`%s`.`%s`", def.DB, def.Name, col.Name),
	}
}

func Qualified(cn *ast.ColumnName) string {
	s := cn.Name.O
	if cn.Table.O != "" {
		s = cn.Table.O + "." + s
	}
	if cn.Schema.O != "" {
		s = cn.Schema.O + "." + s
	}
	return s
}

// compile turns an AST expression into a cexpr.
func (sc *Scope) Compile(n ast.ExprNode) (*Expr, error) {
	switch x := n.(type) {
	case *test_driver.ParamMarkerExpr:
		idx := x.Order
		return &Expr{Fn: func(c *Ctx) (types.Value, error) {
			if idx >= len(c.Args) {
				return types.Null, sqlerr.New(sqlerr.ErWrongArguments, "Incorrect arguments to EXECUTE: %d placeholders, %d values", idx+1, len(c.Args))
			}
			return c.Args[idx], nil
		}, Type: tUnknown, Col: -1, IsConst: true, param: idx}, nil
	case *test_driver.ValueExpr:
		v, err := datumValue(&x.Datum)
		if err != nil {
			return nil, err
		}
		return ConstExpr(v, TypeOfValue(v)), nil
	case *ast.ColumnNameExpr:
		if x.Name.Table.L == "" {
			for _, o := range sc.Outputs {
				if strings.EqualFold(o.Name, x.Name.Name.O) && (sc.Table == nil || sc.Table.Def.ColumnIndex(x.Name.Name.O) < 0) {
					return o.Expr, nil
				}
			}
		}
		return sc.ResolveColumn(x.Name)
	case *ast.ParenthesesExpr:
		return sc.Compile(x.Expr)
	case *ast.BinaryOperationExpr:
		return sc.compileBinary(x)
	case *ast.UnaryOperationExpr:
		return sc.compileUnary(x)
	case *ast.IsNullExpr:
		a, err := sc.Compile(x.Expr)
		if err != nil {
			return nil, err
		}
		not := x.Not
		return derived(func(c *Ctx) (types.Value, error) {
			v, err := a.Fn(c)
			if err != nil {
				return v, err
			}
			return BoolValue(v.IsNull() != not), nil
		}, TBigInt, a), nil
	case *ast.IsTruthExpr:
		a, err := sc.Compile(x.Expr)
		if err != nil {
			return nil, err
		}
		want := x.True > 0
		not := x.Not
		return derived(func(c *Ctx) (types.Value, error) {
			v, err := a.Fn(c)
			if err != nil {
				return v, err
			}
			t, known := v.Truthy()
			r := known && t == want
			return BoolValue(r != not), nil
		}, TBigInt, a), nil
	case *ast.BetweenExpr:
		parts, err := sc.compileArgs([]ast.ExprNode{x.Expr, x.Left, x.Right})
		if err != nil {
			return nil, err
		}
		return betweenExpr(parts, x.Not), nil
	case *ast.PatternInExpr:
		if x.Sel != nil {
			return sc.compileInSubquery(x)
		}
		a, err := sc.Compile(x.Expr)
		if err != nil {
			return nil, err
		}
		list := make([]*Expr, len(x.List))
		for i, e := range x.List {
			if list[i], err = sc.Compile(e); err != nil {
				return nil, err
			}
		}
		not := x.Not
		return derived(func(c *Ctx) (types.Value, error) {
			v, err := a.Fn(c)
			if err != nil || v.IsNull() {
				return types.Null, err
			}
			sawNull := false
			for _, e := range list {
				w, err := e.Fn(c)
				if err != nil {
					return w, err
				}
				if w.IsNull() {
					sawNull = true
					continue
				}
				if types.Compare(v, w) == 0 {
					return BoolValue(!not), nil
				}
			}
			if sawNull {
				return types.Null, nil
			}
			return BoolValue(not), nil
		}, TBigInt, append([]*Expr{a}, list...)...), nil
	case *ast.PatternLikeOrIlikeExpr:
		parts, err := sc.compileArgs([]ast.ExprNode{x.Expr, x.Pattern})
		if err != nil {
			return nil, err
		}
		not := x.Not
		esc := rune(x.Escape) // '\\' unless ESCAPE names another; 0 for ESCAPE ''
		return nullStrict(parts, TBigInt, func(vs []types.Value) types.Value {
			return BoolValue(likeMatchEscape(vs[1].String(), vs[0].String(), esc) != not)
		}), nil
	case *ast.VariableExpr:
		return sc.compileVariable(x)
	case *ast.FuncCallExpr:
		return sc.compileFunc(x)
	case *ast.AggregateFuncExpr:
		return sc.compileAgg(x)
	case *ast.FuncCastExpr:
		return sc.compileCast(x)
	case *ast.CaseExpr:
		return sc.compileCase(x)
	case *ast.DefaultExpr:
		return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support DEFAULT() here")
	case *ast.RowExpr:
		return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support row constructors")
	case *ast.SubqueryExpr:
		return sc.compileScalarSubquery(x)
	case *ast.ExistsSubqueryExpr:
		return sc.compileExists(x)
	case *ast.CompareSubqueryExpr:
		return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support ANY/ALL subqueries")
	}
	return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support the expression '%s'", ExprText(n))
}

// derived builds a cexpr computed from others.
func derived(fn expr, t types.ColType, parts ...*Expr) *Expr {
	e := &Expr{Fn: fn, Type: t, Col: -1, IsConst: true, param: -1}
	for _, p := range parts {
		e.IsConst = e.IsConst && p.IsConst
		e.HasAgg = e.HasAgg || p.HasAgg
	}
	return e
}

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

func BoolValue(b bool) types.Value {
	if b {
		return types.IntValue(1)
	}
	return types.IntValue(0)
}

var arithOps = map[opcode.Op]types.Op{
	opcode.Plus: types.OpAdd, opcode.Minus: types.OpSub, opcode.Mul: types.OpMul,
	opcode.Div: types.OpDiv, opcode.Mod: types.OpMod, opcode.IntDiv: types.OpIntDiv,
}

func arithType(op types.Op, a, b types.ColType) types.ColType {
	dec := func(t types.ColType) bool { return t.Base == types.TDecimal }
	flt := func(t types.ColType) bool { return t.Base == types.TDouble || t.Base == types.TFloat || t.IsString() }
	switch {
	case op == types.OpIntDiv:
		return TBigInt
	case flt(a) || flt(b):
		return tDouble
	case op == types.OpDiv || dec(a) || dec(b):
		s := a.Scale
		if b.Scale > s {
			s = b.Scale
		}
		if op == types.OpDiv {
			s = a.Scale + types.DivPrecisionIncrement
		}
		return types.ColType{Base: types.TDecimal, Length: 65, Scale: s}
	case a.Base == 0 || b.Base == 0:
		return tUnknown
	}
	return types.ColType{Base: types.TBigInt, Unsigned: a.Unsigned || b.Unsigned}
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
		return strict2(a, b, arithType(op, a.Type, b.Type), func(c *Ctx, l, r types.Value) (types.Value, error) {
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
		}), nil
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
		}, TBigInt, a, b), nil
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
		}, TBigInt, a, b), nil
	case opcode.LogicXor:
		return strict2(a, b, TBigInt, func(c *Ctx, l, r types.Value) (types.Value, error) {
			lt, lk := l.Truthy()
			rt, rk := r.Truthy()
			if !lk || !rk {
				return types.Null, nil
			}
			return BoolValue(lt != rt), nil
		}), nil
	case opcode.EQ, opcode.NE, opcode.LT, opcode.LE, opcode.GT, opcode.GE, opcode.NullEQ:
		op := x.Op
		return strict2(a, b, TBigInt, func(c *Ctx, l, r types.Value) (types.Value, error) {
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
		}), nil
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
		t := a.Type
		if t.IsInteger() {
			t = TBigInt
		}
		return derived(func(c *Ctx) (types.Value, error) {
			v, err := a.Fn(c)
			if err != nil {
				return v, err
			}
			r, err := types.Negate(v)
			if re, ok := err.(*types.RangeError); ok {
				return r, sqlerr.New(sqlerr.ErDataOutOfRange, "%s value is out of range in '%s'", re.What, ExprText(x))
			}
			return r, err
		}, t, a), nil
	case opcode.Plus:
		return a, nil
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
		}, TBigInt, a), nil
	}
	return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support the operator '%s'", x.Op.String())
}

func (sc *Scope) compileVariable(x *ast.VariableExpr) (*Expr, error) {
	name := strings.ToLower(x.Name)
	if !x.IsSystem && x.Value != nil {
		// @v := expr assigns as it evaluates and is the value assigned; it
		// is not a constant (a later row sees the new value) and carries the
		// aggregates of expr (SELECT @r := MAX(id) FROM t is one row).
		a, err := sc.Compile(x.Value)
		if err != nil {
			return nil, err
		}
		e := derived(func(c *Ctx) (types.Value, error) {
			v, err := a.Fn(c)
			if err != nil {
				return v, err
			}
			c.Env.UserVars[name] = v
			return v, nil
		}, a.Type, a)
		e.IsConst = false
		return e, nil
	}
	if !x.IsSystem {
		return &Expr{Fn: func(c *Ctx) (types.Value, error) {
			return c.Env.UserVars[name], nil
		}, Type: tUnknown, Col: -1, IsConst: true, param: -1}, nil
	}
	d, err := sysvar.Lookup(name)
	if err != nil {
		return nil, err
	}
	global := x.IsGlobal
	if global && !d.Global && !d.ReadOnly {
		return nil, sqlerr.New(sqlerr.ErLocalVariable, "Variable '%s' is a SESSION variable", name)
	}
	e := &Expr{Fn: func(c *Ctx) (types.Value, error) {
		return sysvar.ValueOf(d, c.Env.owner.SysVar(d, global)), nil
	}, Type: tUnknown, Col: -1, IsConst: true, param: -1}
	switch d.Kind {
	case sysvar.KindInt, sysvar.KindBool:
		e.Type = TBigInt
	default:
		e.Type = TVarchar
	}
	return e, nil
}

func (sc *Scope) compileCase(x *ast.CaseExpr) (*Expr, error) {
	var val *Expr
	var err error
	parts := []*Expr{}
	if x.Value != nil {
		if val, err = sc.Compile(x.Value); err != nil {
			return nil, err
		}
		parts = append(parts, val)
	}
	type when struct{ cond, res *Expr }
	whens := make([]when, len(x.WhenClauses))
	t := tUnknown
	for i, w := range x.WhenClauses {
		if whens[i].cond, err = sc.Compile(w.Expr); err != nil {
			return nil, err
		}
		if whens[i].res, err = sc.Compile(w.Result); err != nil {
			return nil, err
		}
		t = unifyTypes(t, whens[i].res.Type)
		parts = append(parts, whens[i].cond, whens[i].res)
	}
	var els *Expr
	if x.ElseClause != nil {
		if els, err = sc.Compile(x.ElseClause); err != nil {
			return nil, err
		}
		t = unifyTypes(t, els.Type)
		parts = append(parts, els)
	}
	return derived(func(c *Ctx) (types.Value, error) {
		var v types.Value
		if val != nil {
			if v, err = val.Fn(c); err != nil {
				return v, err
			}
		}
		for _, w := range whens {
			cv, err := w.cond.Fn(c)
			if err != nil {
				return cv, err
			}
			var hit bool
			if val != nil {
				hit = !v.IsNull() && !cv.IsNull() && types.Compare(v, cv) == 0
			} else {
				hit, _ = cv.Truthy()
			}
			if hit {
				r, err := w.res.Fn(c)
				return conform(r, t), err
			}
		}
		if els != nil {
			r, err := els.Fn(c)
			return conform(r, t), err
		}
		return types.Null, nil
	}, t, parts...), nil
}

// evalBool evaluates a condition; NULL is false.
func EvalBool(e *Expr, c *Ctx) (bool, error) {
	v, err := e.Fn(c)
	if err != nil {
		return false, err
	}
	t, known := v.Truthy()
	return known && t, nil
}
