package jsondoc

// Kind is a JSON value's type.
type Kind uint8

const (
	Null Kind = iota
	True
	False
	Number
	String
	Array
	Object
)

// Node is one JSON value. Num keeps a number's text as written; Str is a
// string's decoded text (what compares), printed with the escapes it was
// read with; an object's Keys and Vals are in written order.
type Node struct {
	Kind Kind
	Num  string
	Str  string
	// raw is a parsed string's text between its quotes, escapes as
	// written: MariaDB prints "\u00e9" back as it was read, not as é.
	raw    string
	hasRaw bool
	Elems  []*Node // Array
	Keys   []string
	Vals   []*Node // Object, Vals[i] under Keys[i]
}

// Get is the value of key k of object n, or nil.
func (n *Node) Get(k string) *Node {
	for i, key := range n.Keys {
		if key == k {
			return n.Vals[i]
		}
	}
	return nil
}

// Set puts v under key k of object n, replacing or appending.
func (n *Node) Set(k string, v *Node) {
	for i, key := range n.Keys {
		if key == k {
			n.Vals[i] = v
			return
		}
	}
	n.Keys = append(n.Keys, k)
	n.Vals = append(n.Vals, v)
}

// StringNode is a JSON string.
func StringNode(s string) *Node { return &Node{Kind: String, Str: s} }

// NumberNode is a JSON number with text s.
func NumberNode(s string) *Node { return &Node{Kind: Number, Num: s} }

// BoolNode is true or false.
func BoolNode(b bool) *Node {
	if b {
		return &Node{Kind: True}
	}
	return &Node{Kind: False}
}

// TypeName is JSON_TYPE's answer.
func (n *Node) TypeName() string {
	switch n.Kind {
	case Null:
		return "NULL"
	case True, False:
		return "BOOLEAN"
	case Number:
		for i := 0; i < len(n.Num); i++ {
			if n.Num[i] == '.' {
				return "DOUBLE"
			}
		}
		return "INTEGER"
	case String:
		return "STRING"
	case Array:
		return "ARRAY"
	}
	return "OBJECT"
}

// Length is JSON_LENGTH's: elements of an array, keys of an object, 1
// for a scalar.
func (n *Node) Length() int {
	switch n.Kind {
	case Array:
		return len(n.Elems)
	case Object:
		return len(n.Keys)
	}
	return 1
}

// Equal reports whether a and b are the same JSON value (numbers by
// value).
func Equal(a, b *Node) bool {
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case Number:
		return numberValue(a.Num) == numberValue(b.Num)
	case String:
		return a.Str == b.Str
	case Array:
		if len(a.Elems) != len(b.Elems) {
			return false
		}
		for i := range a.Elems {
			if !Equal(a.Elems[i], b.Elems[i]) {
				return false
			}
		}
		return true
	case Object:
		if len(a.Keys) != len(b.Keys) {
			return false
		}
		for i, k := range a.Keys {
			w := b.Get(k)
			if w == nil || !Equal(a.Vals[i], w) {
				return false
			}
		}
	}
	return true
}

// Contains is JSON_CONTAINS: an object contains an object whose every
// key it has with a containing value; an array contains an array whose
// every element it contains, and a scalar some element contains; a
// scalar contains an equal scalar.
func Contains(target, cand *Node) bool {
	switch target.Kind {
	case Object:
		if cand.Kind != Object {
			return false
		}
		for i, k := range cand.Keys {
			v := target.Get(k)
			if v == nil || !Contains(v, cand.Vals[i]) {
				return false
			}
		}
		return true
	case Array:
		if cand.Kind == Array {
			for _, c := range cand.Elems {
				if !Contains(target, c) {
					return false
				}
			}
			return true
		}
		for _, e := range target.Elems {
			if Contains(e, cand) {
				return true
			}
		}
		return false
	}
	return Equal(target, cand)
}
