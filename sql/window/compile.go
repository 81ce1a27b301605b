package window

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/aggregate"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// Window functions compile like aggregates: each call becomes a Func in
// the query's Set and an expression reading its value for the current
// row (Ctx.Wins), which Values computes over all the rows (or groups)
// before the SELECT projects them (compute.go).

// Set collects a SELECT's window functions.
type Set struct {
	// Named are the WINDOW clause's specifications.
	Named map[string]*ast.WindowSpec
	Funcs []Func
}

// Func is one window function call, its window resolved.
type Func struct {
	Name      string // row_number, rank, ..., sum, count, avg, min, max
	Args      []*expr.Expr
	Partition []*expr.Expr
	Order     []*expr.Expr
	Desc      []bool
	Frame     Frame
	Type      types.ColType
	// Agg is an aggregate's spec (Arg nil for COUNT(*)).
	Agg *aggregate.Spec
	// SortKey is the PARTITION BY and ORDER BY as written: windows with
	// the same one share one sort.
	SortKey string
}

// BoundKind is where a frame bound lies.
type BoundKind int

const (
	UnboundedPreceding BoundKind = iota
	Preceding
	CurrentRow
	Following
	UnboundedFollowing
)

// Frame is ROWS or RANGE between two bounds; Offset is the n of
// n PRECEDING / n FOLLOWING (constant).
type Frame struct {
	Rows       bool
	Start, End BoundKind
	StartN     *expr.Expr
	EndN       *expr.Expr
}

// noFrame are the functions that take no frame (4017); needOrder those
// that need ORDER BY (4018).
var (
	noFrame   = map[string]bool{"row_number": true, "rank": true, "dense_rank": true, "percent_rank": true, "cume_dist": true, "ntile": true, "lag": true, "lead": true}
	needOrder = map[string]bool{"rank": true, "dense_rank": true, "percent_rank": true, "cume_dist": true, "ntile": true, "lag": true, "lead": true}
)

// CompileWindow compiles a window function call of the select list or
// ORDER BY into the set (expr.WindowScope): the expression reads the
// value Values computes for the current row.
func (ws *Set) CompileWindow(sc *expr.Scope, x *ast.WindowFuncExpr) (*expr.Expr, error) {
	name := strings.ToLower(x.Name)
	if x.IgnoreNull || x.FromLast {
		return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support IGNORE NULLS or FROM LAST")
	}
	spec, err := ws.resolve(&x.Spec)
	if err != nil {
		return nil, err
	}
	w := Func{Name: name}
	// The window's expressions and the arguments see the row (or group),
	// never another window function.
	sc.Windows = nil
	defer func() { sc.Windows = ws }()
	if spec.PartitionBy != nil {
		for _, it := range spec.PartitionBy.Items {
			e, err := sc.Compile(it.Expr)
			if err != nil {
				return nil, err
			}
			w.Partition = append(w.Partition, e)
		}
	}
	if spec.OrderBy != nil {
		for _, it := range spec.OrderBy.Items {
			e, err := sc.Compile(it.Expr)
			if err != nil {
				return nil, err
			}
			w.Order = append(w.Order, e)
			w.Desc = append(w.Desc, it.Desc)
		}
	}
	if spec.PartitionBy != nil {
		w.SortKey = expr.ExprText(spec.PartitionBy)
	}
	if spec.OrderBy != nil {
		w.SortKey += "|" + expr.ExprText(spec.OrderBy)
	}
	if spec.Frame != nil && noFrame[name] {
		return nil, sqlerr.New(sqlerr.ErNotAllowedWindowFrame, "Window frame is not allowed with '%s'", name)
	}
	if needOrder[name] && len(w.Order) == 0 {
		return nil, sqlerr.New(sqlerr.ErNoOrderListInWindowSpec, "No order list in window specification for '%s'", name)
	}
	if err := compileFrame(sc, &w, spec.Frame); err != nil {
		return nil, err
	}
	args, err := sc.CompileWindowArgs(x.Args)
	if err != nil {
		return nil, err
	}
	w.Args = args
	if err := w.typeAndArity(x); err != nil {
		return nil, err
	}
	idx := len(ws.Funcs)
	ws.Funcs = append(ws.Funcs, w)
	e := expr.RowValue(w.Type, func(c *expr.Ctx) (types.Value, error) { return c.Wins[idx], nil })
	e.NotNull = alwaysValued[w.Name]
	return e, nil
}

// typeAndArity checks the argument count and sets the result type.
func (w *Func) typeAndArity(x *ast.WindowFuncExpr) error {
	n := len(w.Args)
	arity := func(lo, hi int) error {
		if n < lo || n > hi {
			return expr.WrongArgs(strings.ToUpper(w.Name))
		}
		return nil
	}
	switch w.Name {
	case "row_number", "rank", "dense_rank":
		w.Type = types.ColType{Base: types.TBigInt, Length: 21} // as MariaDB describes them
		return arity(0, 0)
	case "percent_rank", "cume_dist":
		w.Type = types.ColType{Base: types.TDecimal, Length: 17, Scale: 10}
		return arity(0, 0)
	case "ntile":
		w.Type = expr.TBigInt
		return arity(1, 1)
	case "lag", "lead":
		if err := arity(1, 3); err != nil {
			return err
		}
		w.Type = w.Args[0].Type
		if n == 3 {
			w.Type = expr.UnifyTypes(w.Args[0].Type, w.Args[2].Type)
		}
		return nil
	case "first_value", "last_value":
		if err := arity(1, 1); err != nil {
			return err
		}
		w.Type = w.Args[0].Type
		return nil
	case "nth_value":
		if err := arity(2, 2); err != nil {
			return err
		}
		w.Type = w.Args[0].Type
		return nil
	case "sum", "avg", "count", "min", "max", "bit_and", "bit_or", "bit_xor":
		if x.Distinct {
			return sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support '%s(DISTINCT) aggregate as window function'", strings.ToUpper(w.Name))
		}
		if err := arity(1, 1); err != nil {
			return err
		}
		spec := &aggregate.Spec{Name: w.Name, Arg: w.Args[0]}
		if v, ok := x.Args[0].(ast.ValueExpr); ok && w.Name == "count" && v.GetValue() != nil {
			spec.Arg = nil // COUNT(*)
		}
		spec.Type = aggregate.Type(w.Name, spec.Arg)
		w.Agg, w.Type = spec, spec.Type
		return nil
	}
	return sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support %s() as a window function", strings.ToUpper(w.Name))
}

// resolve merges a window with the named one it references (OVER w, or
// OVER (w ORDER BY ...)), with MariaDB's rules on what may be added.
func (ws *Set) resolve(s *ast.WindowSpec) (*ast.WindowSpec, error) {
	ref := s.Ref.L
	if s.OnlyAlias {
		ref = s.Name.L
	}
	if ref == "" {
		return s, nil
	}
	named := ws.Named[ref]
	if named == nil {
		name := s.Ref.O
		if s.OnlyAlias {
			name = s.Name.O
		}
		return nil, sqlerr.New(sqlerr.ErWrongWindowSpecName, "Window specification with name '%s' is not defined", name)
	}
	base, err := ws.resolve(named)
	if err != nil {
		return nil, err
	}
	if s.OnlyAlias {
		return base, nil
	}
	name := named.Name.O
	if s.PartitionBy != nil {
		return nil, sqlerr.New(sqlerr.ErPartitionListInReferencing, "Window specification referencing another one '%s' cannot contain partition list", name)
	}
	if s.OrderBy != nil && base.OrderBy != nil {
		return nil, sqlerr.New(sqlerr.ErOrderListInReferencing, "Referenced window specification '%s' already contains order list", name)
	}
	if base.Frame != nil {
		return nil, sqlerr.New(sqlerr.ErWindowFrameInReferenced, "Referenced window specification '%s' cannot contain window frame", name)
	}
	merged := *base
	if s.OrderBy != nil {
		merged.OrderBy = s.OrderBy
	}
	merged.Frame = s.Frame
	return &merged, nil
}

// NewSet collects a WINDOW clause (4010 for a name used twice).
func NewSet(specs []ast.WindowSpec) (*Set, error) {
	ws := &Set{Named: map[string]*ast.WindowSpec{}}
	for i := range specs {
		s := &specs[i]
		if ws.Named[s.Name.L] != nil {
			return nil, sqlerr.New(sqlerr.ErDupWindowName, "Multiple window specifications with the same name '%s'", s.Name.O)
		}
		ws.Named[s.Name.L] = s
	}
	return ws, nil
}

// compileFrame sets w's frame: the one given, else MariaDB's default
// (RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW, the whole
// partition when there is no ORDER BY since every row is then a peer).
func compileFrame(sc *expr.Scope, w *Func, f *ast.FrameClause) error {
	w.Frame = Frame{Start: UnboundedPreceding, End: CurrentRow}
	if f == nil {
		return nil
	}
	w.Frame.Rows = f.Type == ast.Rows
	kind := func(b ast.FrameBound, start bool) BoundKind {
		switch {
		case b.Type == ast.CurrentRow:
			return CurrentRow
		case b.UnBounded && b.Type == ast.Preceding:
			return UnboundedPreceding
		case b.UnBounded:
			return UnboundedFollowing
		case b.Type == ast.Preceding:
			return Preceding
		}
		return Following
	}
	w.Frame.Start = kind(f.Extent.Start, true)
	w.Frame.End = kind(f.Extent.End, false)
	if w.Frame.Start > w.Frame.End || w.Frame.Start == UnboundedFollowing || w.Frame.End == UnboundedPreceding {
		return sqlerr.New(sqlerr.ErBadCombinationOfFrameBounds, "Unacceptable combination of window frame bound specifications")
	}
	offset := func(b ast.FrameBound) (*expr.Expr, error) {
		if b.Expr == nil || b.UnBounded || b.Type == ast.CurrentRow {
			return nil, nil
		}
		if b.Unit != ast.TimeUnitInvalid {
			return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support INTERVAL frame bounds")
		}
		e, err := sc.Compile(b.Expr)
		if err != nil {
			return nil, err
		}
		if w.Frame.Rows && !e.Type.IsInteger() && e.Type.Base != 0 {
			return nil, sqlerr.New(sqlerr.ErWrongTypeForRowsFrame, "Integer is required for ROWS-type frame")
		}
		if !w.Frame.Rows {
			if len(w.Order) != 1 {
				return nil, sqlerr.New(sqlerr.ErRangeFrameNeedsSimpleOrderBy, "RANGE-type frame requires ORDER BY clause with single sort key")
			}
			if t := w.Order[0].Type; t.IsString() || t.Base == 0 {
				return nil, sqlerr.New(sqlerr.ErWrongTypeForRangeFrame, "Numeric datatype is required for RANGE-type frame")
			}
		}
		return e, nil
	}
	var err error
	if w.Frame.StartN, err = offset(f.Extent.Start); err != nil {
		return err
	}
	w.Frame.EndN, err = offset(f.Extent.End)
	return err
}

// alwaysValued are the window functions that are never NULL: their
// result columns are NOT NULL, as in MariaDB.
var alwaysValued = map[string]bool{"row_number": true, "rank": true, "dense_rank": true, "count": true,
	"ntile": true, "percent_rank": true, "cume_dist": true}
