package expr

import (
	"context"

	"github.com/cockroachdb/apd/v3"
	"github.com/pingcap/tidb/pkg/parser/test_driver"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

// Ctx is what an expression reads while it runs. Compiled expressions
// are shared between sessions; everything per-execution lives here.
type Ctx struct {
	Env  *Env
	Args []types.Value
	Row  []types.Value // the current table row
	Aggs []types.Value // aggregate results of the current group
	// Strict is strict mode (STRICT_TRANS_TABLES or STRICT_ALL_TABLES in
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
	// Up is the Ctx of the query whose row Outer is (nil at the top): a
	// column two or more levels out is read from Up.Outer and beyond.
	Up *Ctx
	// Mem is what this (sub)query execution holds against the statement's
	// memory budget; polls counts rows between looks at ctx (poll.go).
	Mem   *MemAccount
	polls uint32
	// Notes are the warnings expressions raised (REPEAT past
	// max_allowed_packet ...), shared with the subqueries' contexts.
	Notes *[]sqlerr.Note
	// Locals are a stored program's local variables, by the slots its
	// Scope.Locals gave (sql/psm).
	Locals []types.Value
	// Tables binds the placeholder tables of derived tables and CTEs to
	// the rows this execution materialized for them (TableOf); subqueries
	// inherit their enclosing query's bindings.
	Tables *TableBinding
	// Wins are the window function values of the current row.
	Wins []types.Value
	// Inserting is the row INSERT ... ON DUPLICATE KEY UPDATE would have
	// inserted, which VALUES(col) in its assignments reads (nil: VALUES()
	// is NULL, as MySQL has it anywhere else).
	Inserting []types.Value
}

// expr is a compiled expression.
type expr func(c *Ctx) (types.Value, error)

// Expr is a compiled expression with what the planner needs to know.
type Expr struct {
	Fn      expr
	Type    types.ColType
	Col     int  // table column index when the expression is a bare column, else -1
	IsConst bool // no column, no aggregate (params and variables count as constant per execution)
	HasAgg  bool
	// NotNull: the expression never yields NULL, as MariaDB infers it
	// for the NOT_NULL flag of a result column (restype.go).
	NotNull bool
	// FixedDecimals: a string MariaDB describes with decimals 0 (CAST AS
	// CHAR, HEX, DATE_FORMAT ...) where other computed strings have 39.
	FixedDecimals bool
	param         int  // ? index when a bare placeholder, else -1
	literal       bool // a literal of the statement's text (Literal)
	// negLiteral: minus a literal number (-1), which MariaDB folds into
	// one literal and sizes as such (restype.go); it is no Literal, which
	// places that take only an unsigned literal rely on.
	negLiteral bool
	text       string
	Source     *Source // the joined table a bare column belongs to (joins only)
}

// Scope resolves names while compiling.
type Scope struct {
	Table *storage.Table
	Alias string // table name or alias used to qualify columns
	DB    string
	Aggs  AggScope // where aggregates go; nil = aggregates not allowed here
	// Outputs lets ORDER BY / HAVING name select-list aliases.
	Outputs []OutputCol
	inAgg   bool
	// Windows is where window functions go (the select list and ORDER BY
	// of a SELECT); nil elsewhere (4015). inWindow is set while a window
	// function's arguments compile.
	Windows  WindowScope
	inWindow bool
	// View is set for a write through a view: its columns, as
	// expressions over the base table (Table), named bare or qualified by
	// the view's name; the base table's alias still names its own.
	View *ViewColumns
	// Clause names the part of the statement being compiled for 1054
	// ("SELECT", "WHERE", ...), as MariaDB reports it; "" is 'field list'.
	Clause string
	// Joined are the tables of a FROM with joins; columns then resolve
	// among them (table is nil).
	Joined []*Source
	// Sub plans subqueries; nil where they are not allowed.
	Sub SubqueryPlanner
	// Funcs resolves stored functions; nil where they are not allowed
	// (column DEFAULTs).
	Funcs FunctionHost
	// Outer is the enclosing query's scope, for a subquery; a column found
	// only there is read from Ctx.Outer and sets *correlated.
	Outer      *Scope
	Correlated *bool
	// Locals resolves a stored program's local variables (sql/psm); nil
	// outside one.
	Locals LocalResolver
	// ImplicitGroup: the query aggregates without GROUP BY, so over no
	// rows it still returns one, its columns NULL: a column read here is
	// never NOT NULL (its result column's flag, CREATE TABLE ... SELECT).
	ImplicitGroup bool
}

// ClauseName is where an unknown column is reported to be.
func (sc *Scope) ClauseName() string {
	if sc.Clause == "" {
		return "field list"
	}
	return sc.Clause
}

// Source is one table of a FROM with joins, as column names resolve
// against it.
type Source struct {
	Table *storage.Table
	Alias string
	Off   int  // where its columns start in the combined row
	Left  bool // LEFT JOIN: a row with no match keeps NULLs here
	// Merged are the (lower-case) names of columns a USING or NATURAL
	// join merged into another table's: an unqualified name does not
	// see them here.
	Merged map[string]bool
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
	return &Expr{Fn: func(*Ctx) (types.Value, error) { return v, nil }, Type: t, Col: -1, IsConst: true, param: -1, NotNull: !v.IsNull()}
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
		return types.HexValue(string(d.GetBytes())), nil
	}
	return types.Null, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support this literal")
}

// derived builds an Expr computed from others.
func derived(fn expr, t types.ColType, parts ...*Expr) *Expr {
	e := &Expr{Fn: fn, Type: t, Col: -1, IsConst: true, param: -1, NotNull: true}
	for _, p := range parts {
		e.IsConst = e.IsConst && p.IsConst
		e.HasAgg = e.HasAgg || p.HasAgg
		e.NotNull = e.NotNull && p.NotNull // NULL in, NULL out: the rule of most operators
	}
	return e
}

// alwaysValued marks e as never NULL (IS NULL, <=>, COUNT ...).
func (e *Expr) alwaysValued() *Expr {
	e.NotNull = true
	return e
}

func BoolValue(b bool) types.Value {
	if b {
		return types.IntValue(1)
	}
	return types.IntValue(0)
}

// EvalBool evaluates a condition; NULL is false.
func EvalBool(e *Expr, c *Ctx) (bool, error) {
	v, err := e.Fn(c)
	if err != nil {
		return false, err
	}
	t, known := v.Truthy()
	return known && t, nil
}
