package jsonfuncs

import (
	"errors"
	"strings"

	"github.com/plrun/plrun/sql/expr"

	"github.com/plrun/plrun/sql/jsondoc"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// tJSON is the type of JSON functions' results: LONGTEXT that is JSON.
var tJSON = types.ColType{Base: types.TText, JSON: true}

// jsonArg parses argument i (1-based in warnings) of function fn: text
// that is not JSON is NULL with warning 4038 (4037 at its end), as
// MariaDB gives it.
func jsonArg(c *expr.Ctx, v types.Value, i int, fn string) (*jsondoc.Node, bool) {
	s := v.String()
	n, err := jsondoc.Parse(s)
	if err == nil {
		return n, true
	}
	var se *jsondoc.SyntaxError
	if errors.As(err, &se) && se.Pos > len(s) {
		c.Warn(sqlerr.Note{Level: "Warning", Code: 4037, Message: "Unexpected end of JSON text in argument " + itoa(i) + " to function '" + fn + "'"})
	} else if se != nil {
		c.Warn(sqlerr.Note{Level: "Warning", Code: 4038, Message: "Syntax error in JSON text in argument " + itoa(i) + " to function '" + fn + "' at position " + itoa(se.Pos)})
	}
	return nil, false
}

// pathArg parses a JSON path argument; a bad one is NULL with warning
// 4042, a wildcard where one is not allowed warning 4044.
func pathArg(c *expr.Ctx, v types.Value, i int, fn string, wildOK bool) (*jsondoc.Path, bool) {
	p, err := jsondoc.ParsePath(v.String())
	if err != nil {
		pos := 1
		var pe *jsondoc.PathError
		if errors.As(err, &pe) {
			pos = pe.Pos
		}
		c.Warn(sqlerr.Note{Level: "Warning", Code: 4042, Message: "Syntax error in JSON path in argument " + itoa(i) + " to function '" + fn + "' at position " + itoa(pos)})
		return nil, false
	}
	if !wildOK && p.Wild() {
		c.Warn(sqlerr.Note{Level: "Warning", Code: 4044, Message: "Wildcards or range in JSON path not allowed in argument " + itoa(i) + " to function '" + fn + "'"})
		return nil, false
	}
	return p, true
}

func itoa(i int) string { return types.IntValue(int64(i)).String() }

// sqlToJSON is an SQL value as a JSON value: NULL is null, numbers are
// numbers, a JSON-typed argument (a JSON column, a JSON function's
// result) is its JSON, other text is a string.
func sqlToJSON(v types.Value, t types.ColType) *jsondoc.Node {
	switch {
	case v.IsNull():
		return &jsondoc.Node{Kind: jsondoc.Null}
	case v.IsNumeric():
		return jsondoc.NumberNode(v.String())
	case t.JSON:
		if n, err := jsondoc.Parse(v.String()); err == nil {
			return n
		}
	}
	return jsondoc.StringNode(v.String())
}

// jsonFunc compiles the JSON functions that read a document (jsonedit.go
// and jsonmerge.go have the ones that change or merge one).
func jsonFunc(f *expr.Call) (*expr.Expr, error) {
	name := f.Name
	jsonOut := func(n *jsondoc.Node) types.Value { return types.StringValue(n.String()) }
	switch name {
	case "json_object":
		if len(f.Args)%2 == 1 {
			return nil, sqlerr.New(sqlerr.ErWrongArgCount, "Incorrect parameter count in the call to native function 'json_object'")
		}
		args := f.Args
		return f.Mk(tJSON, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			n := &jsondoc.Node{Kind: jsondoc.Object}
			for i := 0; i < len(vs); i += 2 {
				k := ""
				if !vs[i].IsNull() {
					k = vs[i].String()
				}
				n.Set(k, sqlToJSON(vs[i+1], args[i+1].Type))
			}
			return jsonOut(n), nil
		}), nil
	case "json_array":
		args := f.Args
		return f.Mk(tJSON, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			n := &jsondoc.Node{Kind: jsondoc.Array}
			for i, v := range vs {
				n.Elems = append(n.Elems, sqlToJSON(v, args[i].Type))
			}
			return jsonOut(n), nil
		}), nil
	case "json_valid":
		if err := f.NArgs(1, 1); err != nil {
			return nil, err
		}
		return f.Mk(expr.TBigInt, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			if vs[0].IsNull() {
				return types.Null, nil
			}
			return expr.BoolValue(jsondoc.Valid(vs[0].String())), nil
		}), nil
	case "json_quote":
		if err := f.NArgs(1, 1); err != nil {
			return nil, err
		}
		return f.Mk(tJSON, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			if vs[0].IsNull() || vs[0].IsNumeric() {
				return types.Null, nil
			}
			var b strings.Builder
			jsondoc.Quote(&b, vs[0].String())
			return types.StringValue(b.String()), nil
		}), nil
	case "json_unquote":
		if err := f.NArgs(1, 1); err != nil {
			return nil, err
		}
		return f.Mk(types.ColType{Base: types.TText}, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			if vs[0].IsNull() {
				return types.Null, nil
			}
			s, ok := jsondoc.Unquote(vs[0].String())
			if !ok {
				jsonArg(c, vs[0], 1, "json_unquote")
			}
			return types.StringValue(s), nil
		}), nil
	case "json_type", "json_length", "json_keys", "json_depth":
		return jsonInspect(f)
	case "json_extract":
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
			var found []*jsondoc.Node
			wild := len(vs) > 2
			for i, pv := range vs[1:] {
				p, ok := pathArg(c, pv, i+2, name, true)
				if !ok {
					return types.Null, nil
				}
				wild = wild || p.Wild()
				found = append(found, p.Find(doc)...)
			}
			switch {
			case len(found) == 0:
				return types.Null, nil
			case !wild:
				return jsonOut(found[0]), nil
			}
			return jsonOut(&jsondoc.Node{Kind: jsondoc.Array, Elems: found}), nil
		}), nil
	case "json_contains":
		if err := f.NArgs(2, 3); err != nil {
			return nil, err
		}
		return f.Mk(expr.TBigInt, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			if expr.AnyNull(vs) {
				return types.Null, nil
			}
			doc, ok := jsonArg(c, vs[0], 1, name)
			if !ok {
				return types.Null, nil
			}
			cand, ok := jsonArg(c, vs[1], 2, name)
			if !ok {
				return types.Null, nil
			}
			if doc, ok = atOptionalPath(c, doc, vs, 2, name); !ok {
				return types.Null, nil
			}
			return expr.BoolValue(jsondoc.Contains(doc, cand)), nil
		}), nil
	case "json_contains_path":
		if err := f.NArgs(3, -1); err != nil {
			return nil, err
		}
		return f.Mk(expr.TBigInt, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
			if expr.AnyNull(vs) {
				return types.Null, nil
			}
			doc, ok := jsonArg(c, vs[0], 1, name)
			if !ok {
				return types.Null, nil
			}
			mode := strings.ToLower(vs[1].String())
			if mode != "one" && mode != "all" {
				c.Warn(sqlerr.Note{Level: "Warning", Code: 4046, Message: `Argument 2 to function 'json_contains_path' must be "one" or "all".`})
				return types.Null, nil
			}
			hits := 0
			for i, pv := range vs[2:] {
				p, ok := pathArg(c, pv, i+3, name, true)
				if !ok {
					return types.Null, nil
				}
				if len(p.Find(doc)) > 0 {
					hits++
				}
			}
			if mode == "one" {
				return expr.BoolValue(hits > 0), nil
			}
			return expr.BoolValue(hits == len(vs)-2), nil
		}), nil
	}
	return jsonEditFunc(f)
}

// jsonInspect compiles JSON_TYPE, JSON_LENGTH, JSON_KEYS, JSON_DEPTH.
func jsonInspect(f *expr.Call) (*expr.Expr, error) {
	name := f.Name
	max := 2
	if name == "json_type" || name == "json_depth" {
		max = 1
	}
	if err := f.NArgs(1, max); err != nil {
		return nil, err
	}
	t := expr.TBigInt
	switch name {
	case "json_type":
		t = expr.TVarchar
	case "json_keys":
		t = tJSON
	}
	return f.Mk(t, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
		if expr.AnyNull(vs) {
			return types.Null, nil
		}
		doc, ok := jsonArg(c, vs[0], 1, name)
		if !ok {
			return types.Null, nil
		}
		if doc, ok = atOptionalPath(c, doc, vs, 1, name); !ok {
			return types.Null, nil
		}
		switch name {
		case "json_type":
			return types.StringValue(doc.TypeName()), nil
		case "json_length":
			return types.IntValue(int64(doc.Length())), nil
		case "json_depth":
			return types.IntValue(int64(depth(doc))), nil
		}
		if doc.Kind != jsondoc.Object {
			return types.Null, nil
		}
		keys := &jsondoc.Node{Kind: jsondoc.Array}
		for _, k := range doc.Keys {
			keys.Elems = append(keys.Elems, jsondoc.StringNode(k))
		}
		return types.StringValue(keys.String()), nil
	}), nil
}

func depth(n *jsondoc.Node) int {
	d := 0
	for _, c := range append(append([]*jsondoc.Node{}, n.Elems...), n.Vals...) {
		d = max(d, depth(c))
	}
	return d + 1
}

// jsonComparable makes a JSON function's result compare with a plain
// value as MariaDB does: a JSON string by its text ('"x"' = 'x'), not
// its quoted form. A JSON column is text and compares as text.
func jsonComparable(a, b *expr.Expr) (*expr.Expr, *expr.Expr) {
	unquoted := func(e *expr.Expr) *expr.Expr {
		fn := e.Fn
		u := *e
		u.Fn = func(c *expr.Ctx) (types.Value, error) {
			v, err := fn(c)
			if err != nil || v.IsNull() {
				return v, err
			}
			if s, ok := jsondoc.Unquote(v.String()); ok && strings.HasPrefix(v.String(), `"`) {
				return types.StringValue(s), nil
			}
			return v, nil
		}
		u.Type = expr.TVarchar
		return &u
	}
	switch {
	case a.Type.JSON && a.Col < 0 && !b.Type.JSON:
		return unquoted(a), b
	case b.Type.JSON && b.Col < 0 && !a.Type.JSON:
		return a, unquoted(b)
	}
	return a, b
}

// atOptionalPath is doc's first value at the path argument vs[i] when the
// call has one (doc itself when not); ok false (the call is NULL) for a
// bad path or one that finds nothing.
func atOptionalPath(c *expr.Ctx, doc *jsondoc.Node, vs []types.Value, i int, name string) (*jsondoc.Node, bool) {
	if len(vs) <= i {
		return doc, true
	}
	p, ok := pathArg(c, vs[i], i+1, name, false)
	if !ok {
		return nil, false
	}
	found := p.Find(doc)
	if len(found) == 0 {
		return nil, false
	}
	return found[0], true
}
