package expr

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/test_driver"
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// Compile turns an AST expression into an Expr.
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
		t := literalType(v)
		if v.K == types.KindString && x.Type.GetCharset() == "binary" {
			// x'..', 0x.., b'..' and _binary'..' are byte strings; the
			// first three are numbers in a numeric context (MariaDB's
			// x'41' + 0 is 0: plrun makes it 65, as 0x41 + 0 is)
			t = types.ColType{Base: types.TVarbinary, Length: len(v.S)}
			if x.Datum.Kind() == test_driver.KindBinaryLiteral {
				v = types.HexValue(v.S)
			} else {
				v = types.BytesValue(v.S)
			}
		}
		e := ConstExpr(v, t)
		e.literal = true
		return e, nil
	case *ast.ColumnNameExpr:
		if e, ok := sc.compileLocal(x); ok {
			return e, nil
		}
		if x.Name.Table.L == "" {
			for _, o := range sc.Outputs {
				if strings.EqualFold(o.Name, x.Name.Name.O) && (sc.Table == nil || sc.Table.Def.ColumnIndex(x.Name.Name.O) < 0) {
					return o.Expr, nil
				}
			}
		}
		return sc.ResolveColumn(x.Name)
	case *ast.ValuesExpr:
		return sc.compileValues(x)
	case *ast.ParenthesesExpr:
		return sc.Compile(x.Expr)
	case *ast.BinaryOperationExpr:
		if e, ok, err := sc.rowCompare(x); ok {
			return e, err
		}
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
		}, TBool, a).alwaysValued(), nil
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
		}, TBool, a).alwaysValued(), nil
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
		if row, ok := x.Expr.(*ast.RowExpr); ok {
			return sc.rowIn(row, x.List, x.Not)
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
		}, TBool, append([]*Expr{a}, list...)...), nil
	case *ast.PatternLikeOrIlikeExpr:
		parts, err := sc.compileArgs([]ast.ExprNode{x.Expr, x.Pattern})
		if err != nil {
			return nil, err
		}
		not := x.Not
		esc := rune(x.Escape) // '\\' unless ESCAPE names another; 0 for ESCAPE ''
		return nullStrict(parts, TBool, func(vs []types.Value) types.Value {
			return BoolValue(likeMatchEscape(vs[1].String(), vs[0].String(), esc) != not)
		}), nil
	case *ast.PatternRegexpExpr:
		parts, err := sc.compileArgs([]ast.ExprNode{x.Expr, x.Pattern})
		if err != nil || RegexpOp == nil {
			return nil, err
		}
		return RegexpOp(parts[0], parts[1], x.Not)
	case *ast.VariableExpr:
		return sc.compileVariable(x)
	case *ast.FuncCallExpr:
		return sc.compileFunc(x)
	case *ast.AggregateFuncExpr:
		return sc.compileAgg(x)
	case *ast.WindowFuncExpr:
		return sc.compileWindow(x)
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
	case *ast.TrimDirectionExpr:
		// TRIM's BOTH/LEADING/TRAILING, read by TRIM in sql/funcs
		dir := map[ast.TrimDirectionType]string{ast.TrimLeading: "LEADING", ast.TrimTrailing: "TRAILING"}[x.Direction]
		return ConstExpr(types.StringValue(dir), TVarchar), nil
	case *ast.TimeUnitExpr:
		// an INTERVAL's unit, read by the date functions (unitArg)
		return ConstExpr(types.StringValue(x.Unit.String()), TVarchar), nil
	case *ast.CompareSubqueryExpr:
		return sc.compileAnyAll(x)
	}
	return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support the expression '%s'", ExprText(n))
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
	if err, ok := sysvar.ComponentError(name); ok {
		return nil, err // @@persist.x is for SET only, as in MySQL
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
	var results []*Expr
	whens := make([]when, len(x.WhenClauses))
	for i, w := range x.WhenClauses {
		if whens[i].cond, err = sc.Compile(w.Expr); err != nil {
			return nil, err
		}
		if whens[i].res, err = sc.Compile(w.Result); err != nil {
			return nil, err
		}
		results = append(results, whens[i].res)
		parts = append(parts, whens[i].cond, whens[i].res)
	}
	var els *Expr
	if x.ElseClause != nil {
		if els, err = sc.Compile(x.ElseClause); err != nil {
			return nil, err
		}
		results = append(results, els)
		parts = append(parts, els)
	}
	t := unifyExprs(results...)
	e := derived(func(c *Ctx) (types.Value, error) {
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
	}, t, parts...)
	e.NotNull = e.NotNull && els != nil // every part NOT NULL, as MariaDB says, and an ELSE
	return e, nil
}
