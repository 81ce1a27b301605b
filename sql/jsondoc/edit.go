package jsondoc

import "strconv"

// Mode is what an edit may do at a path: JSON_SET both, JSON_INSERT only
// add a missing value, JSON_REPLACE only change one that is there.
type Mode uint8

const (
	SetMode Mode = iota
	InsertMode
	ReplaceMode
)

// Edit applies v at p in doc (p has no wildcard), returning the new
// root. A missing last key of an object is added; an index past the end
// of an array appends; a scalar at an array step becomes [scalar, v].
// A path whose parent is missing changes nothing.
func Edit(doc *Node, p *Path, v *Node, mode Mode) *Node {
	if len(p.steps) == 0 {
		if mode == InsertMode {
			return doc
		}
		return v
	}
	parent := doc
	for _, st := range p.steps[:len(p.steps)-1] {
		var out []*Node
		find(parent, []step{st}, &out)
		if len(out) == 0 {
			return doc
		}
		parent = out[0]
	}
	last := p.steps[len(p.steps)-1]
	switch last.kind {
	case stepKey:
		if parent.Kind != Object {
			return doc
		}
		exists := parent.Get(last.key) != nil
		if (exists && mode != InsertMode) || (!exists && mode != ReplaceMode) {
			parent.Set(last.key, v)
		}
	case stepIndex:
		if parent.Kind != Array {
			if i, ok := last.at(1); ok && i == 0 {
				if mode != InsertMode {
					return replaceNode(doc, parent, v)
				}
				return doc
			}
			if mode == ReplaceMode {
				return doc
			}
			// the scalar becomes an array, v appended
			wrapped := &Node{Kind: Array, Elems: []*Node{copyNode(parent), v}}
			return replaceNode(doc, parent, wrapped)
		}
		if i, ok := last.at(len(parent.Elems)); ok {
			if mode != InsertMode {
				parent.Elems[i] = v
			}
		} else if mode != ReplaceMode && !last.fromEnd {
			parent.Elems = append(parent.Elems, v)
		}
	}
	return doc
}

func copyNode(n *Node) *Node { c := *n; return &c }

// replaceNode puts v where old is in doc (old may be doc itself).
func replaceNode(doc, old, v *Node) *Node {
	if doc == old {
		return v
	}
	for i, c := range doc.Elems {
		if c == old {
			doc.Elems[i] = v
			return doc
		}
		replaceNode(c, old, v)
	}
	for i, c := range doc.Vals {
		if c == old {
			doc.Vals[i] = v
			return doc
		}
		replaceNode(c, old, v)
	}
	return doc
}

// Remove deletes the value at p (no wildcard, not $) from doc.
func Remove(doc *Node, p *Path) bool {
	if len(p.steps) == 0 {
		return false
	}
	parent := doc
	for _, st := range p.steps[:len(p.steps)-1] {
		var out []*Node
		find(parent, []step{st}, &out)
		if len(out) == 0 {
			return false
		}
		parent = out[0]
	}
	last := p.steps[len(p.steps)-1]
	switch {
	case last.kind == stepKey && parent.Kind == Object:
		for i, k := range parent.Keys {
			if k == last.key {
				parent.Keys = append(parent.Keys[:i], parent.Keys[i+1:]...)
				parent.Vals = append(parent.Vals[:i], parent.Vals[i+1:]...)
				return true
			}
		}
	case last.kind == stepIndex && parent.Kind == Array:
		if i, ok := last.at(len(parent.Elems)); ok {
			parent.Elems = append(parent.Elems[:i], parent.Elems[i+1:]...)
			return true
		}
	}
	return false
}

// ArrayAppend is JSON_ARRAY_APPEND at p (no wildcard): v goes at the end
// of the array there; a value that is no array becomes [value, v].
func ArrayAppend(doc *Node, p *Path, v *Node) *Node {
	found := p.Find(doc)
	if len(found) == 0 {
		return doc
	}
	t := found[0]
	if t.Kind == Array {
		t.Elems = append(t.Elems, v)
		return doc
	}
	return replaceNode(doc, t, &Node{Kind: Array, Elems: []*Node{copyNode(t), v}})
}

// ArrayInsert is JSON_ARRAY_INSERT: p ends in an index of an array, where
// v is inserted (past the end: appended). ok is false when p does not
// end in an index.
func ArrayInsert(doc *Node, p *Path, v *Node) (*Node, bool) {
	if len(p.steps) == 0 || p.steps[len(p.steps)-1].kind != stepIndex {
		return doc, false
	}
	parent := &Path{steps: p.steps[:len(p.steps)-1]}
	found := parent.Find(doc)
	if len(found) == 0 || found[0].Kind != Array {
		return doc, true
	}
	a := found[0]
	last := p.steps[len(p.steps)-1]
	i := last.index
	if last.fromEnd {
		i = len(a.Elems) - 1 - last.index
	}
	i = min(max(i, 0), len(a.Elems))
	a.Elems = append(a.Elems[:i], append([]*Node{v}, a.Elems[i:]...)...)
	return doc, true
}

// MergePatch is JSON_MERGE_PATCH (RFC 7396): b's keys replace a's, a
// null in b removes the key; b not an object replaces a.
func MergePatch(a, b *Node) *Node {
	if b.Kind != Object {
		return b
	}
	if a.Kind != Object {
		a = &Node{Kind: Object}
	}
	for i, k := range b.Keys {
		v := b.Vals[i]
		if v.Kind == Null {
			for j, ak := range a.Keys {
				if ak == k {
					a.Keys = append(a.Keys[:j], a.Keys[j+1:]...)
					a.Vals = append(a.Vals[:j], a.Vals[j+1:]...)
					break
				}
			}
			continue
		}
		if old := a.Get(k); old != nil {
			a.Set(k, MergePatch(old, v))
		} else {
			a.Set(k, MergePatch(&Node{Kind: Null}, v))
		}
	}
	return a
}

// MergePreserve is JSON_MERGE_PRESERVE (and JSON_MERGE): two objects
// merge key by key (a key in both merges its values), otherwise both
// sides become arrays and are joined.
func MergePreserve(a, b *Node) *Node {
	if a.Kind == Object && b.Kind == Object {
		for i, k := range b.Keys {
			if old := a.Get(k); old != nil {
				a.Set(k, MergePreserve(old, b.Vals[i]))
			} else {
				a.Set(k, b.Vals[i])
			}
		}
		return a
	}
	asArray := func(n *Node) []*Node {
		if n.Kind == Array {
			return n.Elems
		}
		return []*Node{n}
	}
	return &Node{Kind: Array, Elems: append(append([]*Node{}, asArray(a)...), asArray(b)...)}
}

// Search is JSON_SEARCH: the paths of the strings match accepts, in
// document order (all of them, or the first when one is set); with
// scope, only strings at or below one of those nodes.
func Search(doc *Node, one bool, match func(s string) bool, scope ...*Node) []string {
	var out []string
	var walk func(n *Node, path string, in bool) bool
	walk = func(n *Node, path string, in bool) bool {
		for _, s := range scope {
			in = in || s == n
		}
		switch n.Kind {
		case String:
			if in && match(n.Str) {
				out = append(out, path)
				return one
			}
		case Array:
			for i, e := range n.Elems {
				if walk(e, path+"["+strconv.Itoa(i)+"]", in) {
					return true
				}
			}
		case Object:
			for i, k := range n.Keys {
				if walk(n.Vals[i], path+"."+pathKey(k), in) {
					return true
				}
			}
		}
		return false
	}
	walk(doc, "$", len(scope) == 0)
	return out
}

// pathKey is k as MariaDB's JSON_SEARCH writes it in a path: as it is,
// not quoted even when it is no identifier ("$.a b").
func pathKey(k string) string { return k }
