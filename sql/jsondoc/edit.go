package jsondoc

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
