package jsonfuncs

import (
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/jsondoc"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// jsonMergeFunc compiles JSON_ARRAY_APPEND, JSON_ARRAY_INSERT,
// JSON_MERGE_PATCH, JSON_MERGE_PRESERVE / JSON_MERGE, JSON_COMPACT and
// JSON_SEARCH.
func jsonMergeFunc(f *expr.Call) (*expr.Expr, error) {
	name := f.Name
	args := f.Args
	switch name {
	case "json_array_append", "json_array_insert":
		if len(f.Args) < 3 || len(f.Args)%2 == 0 {
			return nil, sqlerr.New(sqlerr.ErWrongArgCount, "Incorrect parameter count in the call to native function '%s'", name)
		}
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
				v := sqlToJSON(vs[i+1], args[i+1].Type)
				if name == "json_array_append" {
					doc = jsondoc.ArrayAppend(doc, p, v)
					continue
				}
				if doc, ok = jsondoc.ArrayInsert(doc, p, v); !ok {
					return types.Null, nil // a path not ending in [n]: NULL, as MariaDB gives
				}
			}
			return types.StringValue(doc.String()), nil
		}), nil
	case "json_merge_patch", "json_merge_preserve", "json_merge":
		if err := f.NArgs(2, -1); err != nil {
			return nil, err
		}
		return f.Mk(tJSON, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			var acc *jsondoc.Node
			for i, v := range vs {
				if v.IsNull() {
					if name == "json_merge_patch" {
						acc = nil // MERGE_PATCH: a NULL is NULL until an object follows
						continue
					}
					return types.Null, nil
				}
				n, ok := jsonArg(c, v, i+1, name)
				if !ok {
					return types.Null, nil
				}
				switch {
				case i == 0 || (acc == nil && name != "json_merge_patch"):
					acc = n
				case name == "json_merge_patch":
					if acc == nil {
						if n.Kind != jsondoc.Object {
							acc = n
						}
						continue
					}
					acc = jsondoc.MergePatch(acc, n)
				default:
					acc = jsondoc.MergePreserve(acc, n)
				}
			}
			if acc == nil {
				return types.Null, nil
			}
			return types.StringValue(acc.String()), nil
		}), nil
	case "json_compact":
		if err := f.NArgs(1, 1); err != nil {
			return nil, err
		}
		return f.Mk(tJSON, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			if vs[0].IsNull() {
				return types.Null, nil
			}
			doc, ok := jsonArg(c, vs[0], 1, name)
			if !ok {
				return types.Null, nil
			}
			return types.StringValue(doc.Compact()), nil
		}), nil
	case "json_search":
		return jsonSearch(f)
	}
	return nil, nil
}

// jsonSearch is JSON_SEARCH(doc, 'one'|'all', pattern[, escape[, path
// ...]]): the paths of the strings LIKE pattern (under the paths, when
// given), one or an array.
func jsonSearch(f *expr.Call) (*expr.Expr, error) {
	if err := f.NArgs(3, -1); err != nil {
		return nil, err
	}
	name := f.Name
	return f.Mk(tJSON, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
		if vs[0].IsNull() || vs[1].IsNull() || vs[2].IsNull() {
			return types.Null, nil
		}
		doc, ok := jsonArg(c, vs[0], 1, name)
		if !ok {
			return types.Null, nil
		}
		mode := vs[1].String()
		if mode != "one" && mode != "all" && mode != "ONE" && mode != "ALL" {
			c.Warn(sqlerr.Note{Level: "Warning", Code: 4046, Message: `Argument 2 to function 'json_search' must be "one" or "all".`})
			return types.Null, nil
		}
		esc := '\\'
		if len(vs) > 3 && !vs[3].IsNull() && vs[3].String() != "" {
			esc = []rune(vs[3].String())[0]
		}
		pattern := vs[2].String()
		var scope []*jsondoc.Node
		if len(vs) > 4 {
			// only under the paths given
			for i, pv := range vs[4:] {
				if pv.IsNull() {
					return types.Null, nil
				}
				p, ok := pathArg(c, pv, i+5, name, true)
				if !ok {
					return types.Null, nil
				}
				scope = append(scope, p.Find(doc)...)
			}
			if len(scope) == 0 {
				return types.Null, nil
			}
		}
		found := jsondoc.Search(doc, mode == "one" || mode == "ONE", func(s string) bool { return expr.LikeMatchEscape(pattern, s, esc) }, scope...)
		switch {
		case len(found) == 0:
			return types.Null, nil
		case len(found) == 1:
			return types.StringValue(jsondoc.StringNode(found[0]).String()), nil
		}
		arr := &jsondoc.Node{Kind: jsondoc.Array}
		for _, p := range found {
			arr.Elems = append(arr.Elems, jsondoc.StringNode(p))
		}
		return types.StringValue(arr.String()), nil
	}), nil
}
