package jsondoc

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// String prints n as MariaDB prints a JSON function's result.
func (n *Node) String() string {
	var b strings.Builder
	n.write(&b)
	return b.String()
}

// Compact prints n with no spaces (JSON_COMPACT).
func (n *Node) Compact() string {
	var b strings.Builder
	n.writeSep(&b, ",", ":")
	return b.String()
}

func (n *Node) write(b *strings.Builder) { n.writeSep(b, ", ", ": ") }

func (n *Node) writeSep(b *strings.Builder, comma, colon string) {
	switch n.Kind {
	case Null:
		b.WriteString("null")
	case True:
		b.WriteString("true")
	case False:
		b.WriteString("false")
	case Number:
		b.WriteString(n.Num)
	case String:
		if n.hasRaw {
			b.WriteByte('"')
			b.WriteString(n.raw)
			b.WriteByte('"')
		} else {
			Quote(b, n.Str)
		}
	case Array:
		b.WriteByte('[')
		for i, e := range n.Elems {
			if i > 0 {
				b.WriteString(comma)
			}
			e.writeSep(b, comma, colon)
		}
		b.WriteByte(']')
	case Object:
		b.WriteByte('{')
		for i, k := range n.Keys {
			if i > 0 {
				b.WriteString(comma)
			}
			Quote(b, k)
			b.WriteString(colon)
			n.Vals[i].writeSep(b, comma, colon)
		}
		b.WriteByte('}')
	}
}

// Quote writes s as a JSON string (JSON_QUOTE): ", \ and control
// characters escaped, the rest as it is.
func Quote(b *strings.Builder, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			// a byte that is no UTF-8 is kept as it is, not replaced
			b.WriteByte(s[i])
			i++
			continue
		}
		i += size
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			if r < 0x20 {
				b.WriteString(`\u00`)
				h := strconv.FormatInt(int64(r), 16)
				if len(h) < 2 {
					h = "0" + h
				}
				b.WriteString(h)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
}

// Unquote is JSON_UNQUOTE: a JSON string's text; anything else as it is.
func Unquote(s string) (string, bool) {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return s, true
	}
	p := &parser{s: s}
	out, err := p.str()
	if err != nil || p.i != len(s) {
		return s, false
	}
	return out, true
}
