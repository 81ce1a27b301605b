package compose

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/query"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
)

// SetOp is UNION, INTERSECT and EXCEPT [ALL | DISTINCT] over query
// expressions, with the ORDER BY and LIMIT of the whole. The operands
// form a tree built with MariaDB's precedence: INTERSECT binds tighter
// than UNION and EXCEPT, which associate to the left.
type SetOp struct {
	root *setNode
	Cols []query.Column
	// result is a table of the result columns: ORDER BY compiles against
	// it, reading the result row.
	result     *storage.TableDef
	ctes       []*CTE
	order      []query.OrderItem
	limit      *expr.Expr
	offset     *expr.Expr
	correlated bool
}

// setNode is an operand (leaf) or an operation on two.
type setNode struct {
	leaf query.Plan
	op   ast.SetOprType
	l, r *setNode
}

func (sp *SetOp) Columns() []query.Column { return sp.Cols }

func (sp *SetOp) Correlated() bool { return sp.correlated }

func (sp *SetOp) ColumnTypes() []types.ColType { return query.ColumnTypes(sp.Cols) }

// Run executes it as a subquery (expr.Subquery).
func (sp *SetOp) Run(c *expr.Ctx, outer []types.Value) ([][]types.Value, error) {
	res, err := sp.Exec(query.RunCtxOf(c, outer))
	if err != nil {
		return nil, err
	}
	return res.Rows, nil
}

// BuildSetOp plans [WITH ...] operand op operand ... [ORDER BY] [LIMIT].
func (b *Builder) BuildSetOp(p Planner, n *ast.SetOprStmt, outer *expr.Scope) (query.Plan, error) {
	var ctes []*CTE
	if n.With != nil {
		var err error
		pop, err := b.PushWith(p, n.With, &ctes)
		defer pop()
		if err != nil {
			return nil, err
		}
	}
	sp, err := buildSetOpList(p, n.SelectList, outer)
	if err != nil {
		return nil, err
	}
	if n.OrderBy != nil || n.Limit != nil {
		if sp.order != nil || sp.limit != nil {
			// (a UNION b ORDER BY x LIMIT 2) ORDER BY y: the outer sorts
			// the inner's result.
			sp = &SetOp{root: &setNode{leaf: sp}, Cols: sp.Cols, result: sp.result, correlated: sp.correlated}
		}
		if err := orderAndLimit(p, sp, n.OrderBy, n.Limit); err != nil {
			return nil, err
		}
	}
	sp.ctes = ctes
	return sp, nil
}

// BuildSetOpList plans the operands and their operators.
func BuildSetOpList(p Planner, list *ast.SetOprSelectList, outer *expr.Scope) (query.Plan, error) {
	return buildSetOpList(p, list, outer)
}

func buildSetOpList(p Planner, list *ast.SetOprSelectList, outer *expr.Scope) (*SetOp, error) {
	var terms []*setNode
	var ops []ast.SetOprType
	for i, part := range list.Selects {
		q, err := p.PlanQuery(part, outer)
		if err != nil {
			return nil, err
		}
		leaf := &setNode{leaf: q}
		if i == 0 {
			terms = append(terms, leaf)
			continue
		}
		op := ast.Union
		switch p := part.(type) {
		case *ast.SelectStmt:
			if p.AfterSetOperator != nil {
				op = *p.AfterSetOperator
			}
		case *ast.SetOprSelectList:
			if p.AfterSetOperator != nil {
				op = *p.AfterSetOperator
			}
		}
		if op == ast.Intersect || op == ast.IntersectAll {
			last := len(terms) - 1
			terms[last] = &setNode{op: op, l: terms[last], r: leaf}
			continue
		}
		terms = append(terms, leaf)
		ops = append(ops, op)
	}
	root := terms[0]
	for i, op := range ops {
		root = &setNode{op: op, l: root, r: terms[i+1]}
	}
	sp := &SetOp{root: root}
	if err := sp.unifyColumns(); err != nil {
		return nil, err
	}
	if err := orderAndLimit(p, sp, list.OrderBy, list.Limit); err != nil {
		return nil, err
	}
	return sp, nil
}

// Leaves are the query expressions the set operation combines, in the
// order written.
func (sp *SetOp) Leaves() []query.Plan {
	var leaves []query.Plan
	var walk func(n *setNode)
	walk = func(n *setNode) {
		if n.leaf != nil {
			leaves = append(leaves, n.leaf)
			return
		}
		walk(n.l)
		walk(n.r)
	}
	walk(sp.root)
	return leaves
}

// unifyColumns names the result columns after the first operand's and
// gives each the type of all operands' (1222 if their counts differ).
func (sp *SetOp) unifyColumns() error {
	leaves := sp.Leaves()
	for _, q := range leaves {
		sp.correlated = sp.correlated || q.Correlated()
	}
	first := leaves[0].Columns()
	for _, q := range leaves[1:] {
		if len(q.Columns()) != len(first) {
			return sqlerr.New(sqlerr.ErWrongNumberOfColumnsInSelect, "The used SELECT statements have a different number of columns")
		}
	}
	sp.Cols = make([]query.Column, len(first))
	for i, c := range first {
		col := query.Column{Name: c.Name, Type: c.Type, NotNull: c.NotNull}
		for _, q := range leaves[1:] {
			o := q.Columns()[i]
			col.Type = unifyColumnType(col.Type, o.Type)
			col.NotNull = col.NotNull && o.NotNull
		}
		sp.Cols[i] = col
	}
	sp.result = query.ResultDef(sp.Cols, "")
	return nil
}

// unifyColumnType is the type of a result column two operands give, as
// MariaDB aggregates them: one type keeps its widest length (DECIMAL:
// the most integer digits and the largest scale), a string with anything
// is a VARCHAR long enough for both, an integer with a DECIMAL is a
// DECIMAL holding both, and the rest aggregate as CASE does.
func unifyColumnType(a, b types.ColType) types.ColType {
	switch {
	case a.Base == 0:
		return b
	case b.Base == 0:
		return a
	case a.Base == b.Base && a.Unsigned == b.Unsigned:
		if a.Base == types.TDecimal {
			return decimalOf(max(a.Length-a.Scale, b.Length-b.Scale), max(a.Scale, b.Scale))
		}
		a.Length, a.Scale = max(a.Length, b.Length), max(a.Scale, b.Scale)
		return a
	case a.IsBinary() || b.IsBinary():
		// a byte string makes the column one, as in MariaDB
		return types.ColType{Base: types.TVarbinary, Length: max(displayLength(a), displayLength(b))}
	case a.IsString() || b.IsString():
		return types.ColType{Base: types.TVarchar, Length: max(displayLength(a), displayLength(b))}
	case a.IsInteger() && b.IsInteger():
		if b.Base > a.Base || (b.Base == a.Base && !b.Unsigned) {
			a, b = b, a
		}
		if a.Unsigned != b.Unsigned && a.Base == types.TBigInt {
			return decimalOf(20, 0)
		}
		a.Unsigned = a.Unsigned && b.Unsigned
		return a
	case a.IsInteger() && b.Base == types.TDecimal:
		return decimalOf(max(expr.IntDigits(a), b.Length-b.Scale), b.Scale)
	case b.IsInteger() && a.Base == types.TDecimal:
		return decimalOf(max(expr.IntDigits(b), a.Length-a.Scale), a.Scale)
	}
	return expr.UnifyTypes(a, b)
}

func decimalOf(intDigits, scale int) types.ColType {
	return types.ColType{Base: types.TDecimal, Length: min(intDigits+scale, 65), Scale: scale}
}

// displayLength is how many characters a value of t prints as at most.
func displayLength(t types.ColType) int {
	switch {
	case t.IsString():
		return t.Length
	case t.IsInteger():
		return expr.IntDigits(t) + 1
	case t.Base == types.TDecimal:
		if t.Scale > 0 {
			return t.Length + 2
		}
		return t.Length + 1
	case t.Base == types.TDate:
		return 10
	case t.Base == types.TDatetime || t.Base == types.TTimestamp:
		if t.Scale > 0 {
			return 20 + t.Scale
		}
		return 19
	}
	return 22 // FLOAT, DOUBLE
}

// orderAndLimit compiles ORDER BY and LIMIT of the whole: ORDER BY names
// result columns (or positions) only.
func orderAndLimit(p Planner, sp *SetOp, order *ast.OrderByClause, limit *ast.Limit) error {
	sc := p.BaseScope()
	sc.Table, sc.Clause = storage.NewTable(sp.result), "ORDER BY"
	if order != nil {
		for _, o := range order.Items {
			if t := qualifiedColumn(o.Expr); t != "" {
				return sqlerr.New(sqlerr.ErTablenameNotAllowedHere, "Table '%s' from one of the SELECTs cannot be used in ORDER BY", t)
			}
			var e *expr.Expr
			var err error
			if pos, ok := o.Expr.(*ast.PositionExpr); ok {
				if pos.N < 1 || pos.N > len(sp.Cols) {
					return sqlerr.New(sqlerr.ErBadField, "Unknown column '%d' in 'ORDER BY'", pos.N)
				}
				e = expr.ColumnExpr(sp.result, pos.N-1, pos.N-1, nil)
			} else if e, err = sc.Compile(o.Expr); err != nil {
				return err
			}
			sp.order = append(sp.order, query.OrderItem{E: e, Desc: o.Desc})
		}
	}
	if limit != nil {
		var err error
		if sp.limit, err = sc.Compile(limit.Count); err != nil {
			return err
		}
		if limit.Offset != nil {
			if sp.offset, err = sc.Compile(limit.Offset); err != nil {
				return err
			}
		}
	}
	return nil
}

// qualifiedColumn is the table a column of e is qualified with, if any.
func qualifiedColumn(e ast.ExprNode) string {
	v := &qualifiedFinder{}
	e.Accept(v)
	return v.table
}

type qualifiedFinder struct{ table string }

func (v *qualifiedFinder) Enter(n ast.Node) (ast.Node, bool) {
	switch x := n.(type) {
	case *ast.SubqueryExpr:
		return n, true
	case *ast.ColumnNameExpr:
		if v.table == "" && x.Name.Table.O != "" {
			v.table = x.Name.Table.O
		}
	}
	return n, false
}

func (v *qualifiedFinder) Leave(n ast.Node) (ast.Node, bool) { return n, true }
