package aggregate

import (
	"sort"
	"strconv"
	"strings"

	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// concatAcc gathers one group's GROUP_CONCAT rows.
type concatAcc struct {
	rows [][]types.Value // the arguments' text, then the ORDER BY keys
	seen map[string]bool
}

// Add takes the current row: skipped if an argument is NULL, or under
// DISTINCT if its arguments were seen already.
func (a *concatAcc) Add(cs *ConcatSpec, distinct bool, c *expr.Ctx) error {
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
			text.WriteString(expr.JSONText(types.StringValue(v.String()), expr.TVarchar) + ":")
		case cs.JSON != 0:
			text.WriteString(expr.JSONText(v, e.Type))
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
	if err := c.Mem.Grow(expr.ValuesBytes(vals)); err != nil {
		return err
	}
	a.rows = append(a.rows, vals)
	return nil
}

// Result is the group's text (NULL for no rows), cut at
// group_concat_max_len bytes with warning 1260; JSON_ARRAYAGG's and
// JSON_OBJECTAGG's in [] or {}.
func (a *concatAcc) Result(cs *ConcatSpec, c *expr.Ctx) types.Value {
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
			c.Warn(sqlerr.Note{Level: "Warning", Code: sqlerr.ErCutValueGroupConcat, Message: "Row " + strconv.Itoa(i+1) + " was cut by GROUP_CONCAT()"})
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
