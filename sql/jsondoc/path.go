package jsondoc

import (
	"strconv"
	"strings"
)

// stepKind is one step of a JSON path.
type stepKind uint8

const (
	stepKey      stepKind = iota // .name or ."name"
	stepAnyKey                   // .*
	stepIndex                    // [n], [last], [last-n]
	stepAnyIndex                 // [*]
	stepDeep                     // ** (any depth, then the next step)
)

type step struct {
	kind    stepKind
	key     string
	index   int
	fromEnd bool // [last-n]: index counts back from the last element
}

// Path is a parsed JSON path.
type Path struct{ steps []step }

// PathError is a path that does not parse: Pos is 1-based (warning 4042).
type PathError struct{ Pos int }

func (e *PathError) Error() string {
	return "Syntax error in JSON path at position " + strconv.Itoa(e.Pos)
}

// Wild reports whether p has *, ** (so may match many values).
func (p *Path) Wild() bool {
	for _, s := range p.steps {
		if s.kind == stepAnyKey || s.kind == stepAnyIndex || s.kind == stepDeep {
			return true
		}
	}
	return false
}

// ParsePath reads $ followed by steps.
func ParsePath(s string) (*Path, error) {
	i := 0
	for i < len(s) && s[i] == ' ' {
		i++
	}
	if i >= len(s) || s[i] != '$' {
		return nil, &PathError{Pos: i + 1}
	}
	i++
	p := &Path{}
	for {
		for i < len(s) && s[i] == ' ' {
			i++
		}
		if i >= len(s) {
			break
		}
		switch {
		case s[i] == '.':
			i++
			switch {
			case i < len(s) && s[i] == '*':
				p.steps = append(p.steps, step{kind: stepAnyKey})
				i++
			case i < len(s) && s[i] == '"':
				end := strings.IndexByte(s[i+1:], '"')
				if end < 0 {
					return nil, &PathError{Pos: i + 1}
				}
				p.steps = append(p.steps, step{kind: stepKey, key: s[i+1 : i+1+end]})
				i += end + 2
			default:
				start := i
				for i < len(s) && s[i] != '.' && s[i] != '[' && s[i] != ' ' && s[i] != '*' {
					i++
				}
				if i == start {
					return nil, &PathError{Pos: i + 1}
				}
				p.steps = append(p.steps, step{kind: stepKey, key: s[start:i]})
			}
		case s[i] == '[':
			end := strings.IndexByte(s[i:], ']')
			if end < 0 {
				return nil, &PathError{Pos: i + 1}
			}
			in := strings.TrimSpace(s[i+1 : i+end])
			st := step{kind: stepIndex}
			switch {
			case in == "*":
				st.kind = stepAnyIndex
			case strings.HasPrefix(in, "last"):
				st.fromEnd = true
				rest := strings.TrimSpace(in[4:])
				if rest != "" {
					if rest[0] != '-' {
						return nil, &PathError{Pos: i + 2}
					}
					n, err := strconv.Atoi(strings.TrimSpace(rest[1:]))
					if err != nil || n < 0 {
						return nil, &PathError{Pos: i + 2}
					}
					st.index = n
				}
			default:
				n, err := strconv.Atoi(in)
				if err != nil || n < 0 {
					return nil, &PathError{Pos: i + 2}
				}
				st.index = n
			}
			p.steps = append(p.steps, st)
			i += end + 1
		case strings.HasPrefix(s[i:], "**"):
			p.steps = append(p.steps, step{kind: stepDeep})
			i += 2
			if i >= len(s) {
				return nil, &PathError{Pos: i + 1}
			}
		default:
			return nil, &PathError{Pos: i + 1}
		}
	}
	return p, nil
}

func (st step) at(n int) (int, bool) {
	i := st.index
	if st.fromEnd {
		i = n - 1 - st.index
	}
	return i, i >= 0 && i < n
}

// Find is every value p matches in doc, in document order.
func (p *Path) Find(doc *Node) []*Node {
	var out []*Node
	find(doc, p.steps, &out)
	return out
}

func find(n *Node, steps []step, out *[]*Node) {
	if len(steps) == 0 {
		*out = append(*out, n)
		return
	}
	st, rest := steps[0], steps[1:]
	switch st.kind {
	case stepKey:
		if n.Kind == Object {
			if v := n.Get(st.key); v != nil {
				find(v, rest, out)
			}
		}
	case stepAnyKey:
		if n.Kind == Object {
			for _, v := range n.Vals {
				find(v, rest, out)
			}
		}
	case stepIndex:
		if n.Kind == Array {
			if i, ok := st.at(len(n.Elems)); ok {
				find(n.Elems[i], rest, out)
			}
		} else if i, ok := st.at(1); ok && i == 0 {
			// a scalar or object is an array of one ($[0] is itself)
			find(n, rest, out)
		}
	case stepAnyIndex:
		if n.Kind == Array {
			for _, e := range n.Elems {
				find(e, rest, out)
			}
		}
	case stepDeep:
		find(n, rest, out)
		for _, c := range children(n) {
			find(c, steps, out)
		}
	}
}

func children(n *Node) []*Node {
	switch n.Kind {
	case Array:
		return n.Elems
	case Object:
		return n.Vals
	}
	return nil
}
