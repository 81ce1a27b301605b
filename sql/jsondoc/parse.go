package jsondoc

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// SyntaxError is text that is not JSON: Pos is the 1-based byte where it
// fails, as MariaDB's warning 4038 reports it.
type SyntaxError struct{ Pos int }

func (e *SyntaxError) Error() string {
	return "Syntax error in JSON text at position " + strconv.Itoa(e.Pos)
}

// maxDepth bounds nesting, as MariaDB's JSON_DEPTH limit (32) does, so
// hostile text cannot exhaust the stack.
const maxDepth = 32

// Parse reads JSON text (whitespace around it allowed).
func Parse(s string) (*Node, error) {
	p := &parser{s: s}
	p.space()
	n, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(s) {
		return nil, p.fail()
	}
	return n, nil
}

// Valid is JSON_VALID.
func Valid(s string) bool {
	_, err := Parse(s)
	return err == nil
}

type parser struct {
	s string
	i int
}

func (p *parser) fail() error { return &SyntaxError{Pos: p.i + 1} }

func (p *parser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n' || p.s[p.i] == '\r') {
		p.i++
	}
}

func (p *parser) value(depth int) (*Node, error) {
	if p.i >= len(p.s) || depth > maxDepth {
		return nil, p.fail()
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		start := p.i
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return &Node{Kind: String, Str: s, raw: p.s[start+1 : p.i-1], hasRaw: true}, nil
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case strings.HasPrefix(p.s[p.i:], "true"):
		p.i += 4
		return &Node{Kind: True}, nil
	case strings.HasPrefix(p.s[p.i:], "false"):
		p.i += 5
		return &Node{Kind: False}, nil
	case strings.HasPrefix(p.s[p.i:], "null"):
		p.i += 4
		return &Node{Kind: Null}, nil
	}
	return nil, p.fail()
}

func (p *parser) object(depth int) (*Node, error) {
	n := &Node{Kind: Object}
	p.i++
	p.space()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return n, nil
	}
	for {
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return nil, p.fail()
		}
		k, err := p.str()
		if err != nil {
			return nil, err
		}
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return nil, p.fail()
		}
		p.i++
		p.space()
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		n.Keys = append(n.Keys, k)
		n.Vals = append(n.Vals, v)
		p.space()
		if p.i >= len(p.s) {
			return nil, p.fail()
		}
		if p.s[p.i] == '}' {
			p.i++
			return n, nil
		}
		if p.s[p.i] != ',' {
			return nil, p.fail()
		}
		p.i++
	}
}

func (p *parser) array(depth int) (*Node, error) {
	n := &Node{Kind: Array}
	p.i++
	p.space()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return n, nil
	}
	for {
		p.space()
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		n.Elems = append(n.Elems, v)
		p.space()
		if p.i >= len(p.s) {
			return nil, p.fail()
		}
		if p.s[p.i] == ']' {
			p.i++
			return n, nil
		}
		if p.s[p.i] != ',' {
			return nil, p.fail()
		}
		p.i++
	}
}

func (p *parser) number() (*Node, error) {
	start := p.i
	if p.s[p.i] == '-' {
		p.i++
	}
	digits := func() int {
		n := 0
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	if digits() == 0 {
		return nil, p.fail()
	}
	if p.i < len(p.s) && p.s[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return nil, p.fail()
		}
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		p.i++
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return nil, p.fail()
		}
	}
	return NumberNode(p.s[start:p.i]), nil
}

// str reads a quoted string at p.i, decoding its escapes.
func (p *parser) str() (string, error) {
	p.i++
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return b.String(), nil
		case c == '\\':
			if p.i+1 >= len(p.s) {
				return "", p.fail()
			}
			p.i++
			switch e := p.s[p.i]; e {
			case '"', '\\', '/':
				b.WriteByte(e)
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				r, ok := p.hex4()
				if !ok {
					return "", p.fail()
				}
				if utf16.IsSurrogate(r) && strings.HasPrefix(p.s[p.i+1:], "\\u") {
					p.i += 2
					r2, ok := p.hex4()
					if !ok {
						return "", p.fail()
					}
					r = utf16.DecodeRune(r, r2)
				}
				b.WriteRune(r)
			default:
				return "", p.fail()
			}
			p.i++
		case c < 0x20:
			return "", p.fail()
		default:
			_, size := utf8.DecodeRuneInString(p.s[p.i:])
			b.WriteString(p.s[p.i : p.i+size])
			p.i += size
		}
	}
	return "", p.fail()
}

// hex4 reads the 4 hex digits after \u (p.i at the 'u'), leaving p.i
// at the last digit.
func (p *parser) hex4() (rune, bool) {
	if p.i+4 >= len(p.s) {
		return 0, false
	}
	n, err := strconv.ParseUint(p.s[p.i+1:p.i+5], 16, 32)
	if err != nil {
		return 0, false
	}
	p.i += 4
	return rune(n), true
}

func numberValue(s string) float64 {
	f, _ := strconv.ParseFloat(s, 64)
	return f
}
