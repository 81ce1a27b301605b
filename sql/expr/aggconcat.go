package expr

import (
	"sort"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// ConcatSpec is what GROUP_CONCAT([DISTINCT] a, b ... [ORDER BY k [DESC],
// ...] [SEPARATOR s]) runs per group.
type ConcatSpec struct {
	Args  []*Expr
	Order []*Expr
	Desc  []bool
	Sep   string
	// JSON is 'a' for JSON_ARRAYAGG(v), 'o' for JSON_OBJECTAGG(k, v):
	// the rows are JSON text, in [] or {} (MariaDB prints them without
	// the spaces of its other JSON results).
	JSON byte
}

// JSONText is an SQL value as JSON text, for JSON_ARRAYAGG and
// JSON_OBJECTAGG; sql/funcs sets it.
var JSONText func(v types.Value, t types.ColType) string

func (sc *Scope) compileJSONAgg(x *ast.AggregateFuncExpr, spec AggSpec) (*Expr, error) {
	cs := &ConcatSpec{JSON: 'a', Sep: ","}
	want := 1
	if spec.Name == "json_objectagg" {
		cs.JSON, cs.Sep, want = 'o', ", ", 2
	}
	if len(x.Args) != want || JSONText == nil {
		return nil, wrongArgs(strings.ToUpper(spec.Name))
	}
	sc.inAgg = true
	defer func() { sc.inAgg = false }()
	for _, a := range x.Args {
		e, err := sc.Compile(a)
		if err != nil {
			return nil, err
		}
		cs.Args = append(cs.Args, e)
	}
	if err := sc.compileConcatOrder(x, cs); err != nil {
		return nil, err
	}
	spec.Concat = cs
	spec.Type = types.ColType{Base: types.TText, JSON: true}
	sc.inAgg = false
	return sc.aggSlot(spec), nil
}

func (sc *Scope) compileConcatOrder(x *ast.AggregateFuncExpr, cs *ConcatSpec) error {
	if x.Order == nil {
		return nil
	}
	for _, it := range x.Order.Items {
		// ORDER BY 2 is the function's second argument, as in MariaDB
		if pos, ok := it.Expr.(*ast.PositionExpr); ok && pos.P == nil {
			if pos.N < 1 || pos.N > len(cs.Args) {
				return sqlerr.New(sqlerr.ErBadField, "Unknown column '%d' in 'ORDER BY'", pos.N)
			}
			cs.Order = append(cs.Order, cs.Args[pos.N-1])
			cs.Desc = append(cs.Desc, it.Desc)
			continue
		}
		e, err := sc.Compile(it.Expr)
		if err != nil {
			return err
		}
		cs.Order = append(cs.Order, e)
		cs.Desc = append(cs.Desc, it.Desc)
	}
	return nil
}

func (sc *Scope) compileGroupConcat(x *ast.AggregateFuncExpr, spec AggSpec) (*Expr, error) {
	// The parser appends the separator (',' unless written) as the last
	// argument.
	if len(x.Args) < 2 {
		return nil, wrongArgs("GROUP_CONCAT")
	}
	sepNode, ok := x.Args[len(x.Args)-1].(ast.ValueExpr)
	if !ok {
		return nil, wrongArgs("GROUP_CONCAT")
	}
	cs := &ConcatSpec{Sep: sepNode.GetString()}
	sc.inAgg = true
	defer func() { sc.inAgg = false }()
	for _, a := range x.Args[:len(x.Args)-1] {
		e, err := sc.Compile(a)
		if err != nil {
			return nil, err
		}
		cs.Args = append(cs.Args, e)
	}
	if err := sc.compileConcatOrder(x, cs); err != nil {
		return nil, err
	}
	spec.Concat = cs
	spec.Type = types.ColType{Base: types.TText}
	sc.inAgg = false
	return sc.aggSlot(spec), nil
}

// ConcatAcc gathers one group's GROUP_CONCAT rows.
type ConcatAcc struct {
	rows [][]types.Value // the arguments' text, then the ORDER BY keys
	seen map[string]bool
}

// Add takes the current row: skipped if an argument is NULL, or under
// DISTINCT if its arguments were seen already.
func (a *ConcatAcc) Add(cs *ConcatSpec, distinct bool, c *Ctx) error {
	vals := make([]types.Value, 0, 1+len(cs.Order))
	var text strings.Builder
	for i, e := range cs.Args {
		v, err := e.Fn(c)
		switch {
		case err != nil:
			return err
		case cs.JSON == 'o' && i == 0:
			// a NULL key is skipped, as MariaDB does
			if v.IsNull() {
				return nil
			}
			text.WriteString(JSONText(types.StringValue(v.String()), TVarchar) + ":")
		case cs.JSON != 0:
			text.WriteString(JSONText(v, e.Type))
		case v.IsNull():
			return nil
		default:
			text.WriteString(v.String())
		}
	}
	vals = append(vals, types.StringValue(text.String()))
	if distinct {
		if a.seen == nil {
			a.seen = map[string]bool{}
		}
		if a.seen[text.String()] {
			return nil
		}
		a.seen[text.String()] = true
	}
	for _, e := range cs.Order {
		v, err := e.Fn(c)
		if err != nil {
			return err
		}
		vals = append(vals, v)
	}
	if err := c.Mem.Grow(valuesBytes(vals)); err != nil {
		return err
	}
	a.rows = append(a.rows, vals)
	return nil
}

// Result is the group's text (NULL for no rows), cut at
// group_concat_max_len bytes with warning 1260; JSON_ARRAYAGG's and
// JSON_OBJECTAGG's in [] or {}.
func (a *ConcatAcc) Result(cs *ConcatSpec, c *Ctx) types.Value {
	if len(a.rows) == 0 {
		return types.Null
	}
	if len(cs.Order) > 0 {
		sort.SliceStable(a.rows, func(i, j int) bool {
			for k, desc := range cs.Desc {
				if d := types.Compare(a.rows[i][k+1], a.rows[j][k+1]); d != 0 {
					return (d < 0) != desc
				}
			}
			return false
		})
	}
	limit := c.Env.GroupConcatMaxLen()
	var b strings.Builder
	for i, r := range a.rows {
		if i > 0 {
			b.WriteString(cs.Sep)
		}
		b.WriteString(r[0].S)
		if int64(b.Len()) > limit {
			c.warn(sqlerr.Note{Level: "Warning", Code: sqlerr.ErCutValueGroupConcat, Message: "Row " + strconv.Itoa(i+1) + " was cut by GROUP_CONCAT()"})
			return types.StringValue(b.String()[:limit])
		}
	}
	switch cs.JSON {
	case 'a':
		return types.StringValue("[" + b.String() + "]")
	case 'o':
		return types.StringValue("{" + b.String() + "}")
	}
	return types.StringValue(b.String())
}
