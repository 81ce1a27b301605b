package jsonfuncs

import (
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/jsondoc"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// jsonEditFunc compiles JSON_SET, JSON_INSERT, JSON_REPLACE, JSON_REMOVE
// and JSON_ARRAY_APPEND: each path in turn, on the document the last
// one left.
func jsonEditFunc(f *expr.Call) (*expr.Expr, error) {
	name := f.Name
	var mode jsondoc.Mode
	switch name {
	case "json_set":
		mode = jsondoc.SetMode
	case "json_insert":
		mode = jsondoc.InsertMode
	case "json_replace":
		mode = jsondoc.ReplaceMode
	case "json_remove":
		if err := f.NArgs(2, -1); err != nil {
			return nil, err
		}
		return f.Mk(tJSON, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			if expr.AnyNull(vs) {
				return types.Null, nil
			}
			doc, ok := jsonArg(c, vs[0], 1, name)
			if !ok {
				return types.Null, nil
			}
			for i, pv := range vs[1:] {
				p, ok := pathArg(c, pv, i+2, name, false)
				if !ok {
					return types.Null, nil
				}
				jsondoc.Remove(doc, p)
			}
			return types.StringValue(doc.String()), nil
		}), nil
	default:
		return nil, nil
	}
	if len(f.Args) < 3 || len(f.Args)%2 == 0 {
		return nil, sqlerr.New(sqlerr.ErWrongArgCount, "Incorrect parameter count in the call to native function '%s'", name)
	}
	args := f.Args
	return f.Mk(tJSON, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
		if vs[0].IsNull() {
			return types.Null, nil
		}
		doc, ok := jsonArg(c, vs[0], 1, name)
		if !ok {
			return types.Null, nil
		}
		for i := 1; i < len(vs); i += 2 {
			if vs[i].IsNull() {
				return types.Null, nil
			}
			p, ok := pathArg(c, vs[i], i+1, name, false)
			if !ok {
				return types.Null, nil
			}
			doc = jsondoc.Edit(doc, p, sqlToJSON(vs[i+1], args[i+1].Type), mode)
		}
		return types.StringValue(doc.String()), nil
	}), nil
}
