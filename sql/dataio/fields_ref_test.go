package dataio

import (
	"bytes"

	"github.com/plrun/plrun/sql/parse"
)

// refFieldReader is the byte-at-a-time reader fields.go had before its
// fast path, kept as the fuzz reference: it splits a LOAD DATA file into lines of fields as MySQL's
// READ_INFO does: LINES STARTING BY skips to (and past) the prefix, a
// field may be enclosed (a doubled enclosing character is one), the escape
// character takes the next byte literally or as \0 \b \n \r \t \Z, an
// unenclosed \N is NULL, and so is an unenclosed NULL when ENCLOSED BY is
// set.
type refFieldReader struct {
	data []byte
	pos  int
	f    parse.FileFormat
	esc  int // -1: none
	encl int
}

func newRefFieldReader(data []byte, f parse.FileFormat) *refFieldReader {
	r := &refFieldReader{data: data, f: f, esc: -1, encl: -1}
	if f.Escaped != "" {
		r.esc = int(f.Escaped[0])
	}
	if f.Enclosed != "" {
		r.encl = int(f.Enclosed[0])
	}
	return r
}

func (r *refFieldReader) at(s string) bool {
	return s != "" && bytes.HasPrefix(r.data[r.pos:], []byte(s))
}

// next reads one line; ok is false at the end of the data.
func (r *refFieldReader) next() (fields []loadField, ok bool) {
	if r.f.LinesStarting != "" {
		i := bytes.Index(r.data[r.pos:], []byte(r.f.LinesStarting))
		if i < 0 {
			r.pos = len(r.data)
			return nil, false
		}
		r.pos += i + len(r.f.LinesStarting)
	} else if r.pos >= len(r.data) {
		return nil, false
	}
	for {
		fld, endLine := r.field()
		fields = append(fields, fld)
		if endLine {
			return fields, true
		}
	}
}

// field reads one field and what ends it: endLine is true at a line
// terminator or the end of the data.
func (r *refFieldReader) field() (loadField, bool) {
	var b []byte
	enclosed := false
	if r.encl >= 0 && r.pos < len(r.data) && int(r.data[r.pos]) == r.encl {
		enclosed = true
		r.pos++
	}
	for r.pos < len(r.data) {
		c := int(r.data[r.pos])
		if r.esc >= 0 && c == r.esc && r.pos+1 < len(r.data) {
			r.pos += 2
			b = append(b, refUnescape(r.data[r.pos-1]))
			if r.data[r.pos-1] == 'N' && !enclosed && len(b) == 1 && r.fieldEndsHere() {
				end := r.consumeTerminator()
				return loadField{null: true}, end
			}
			continue
		}
		if enclosed {
			if c == r.encl {
				if r.pos+1 < len(r.data) && int(r.data[r.pos+1]) == r.encl {
					b = append(b, byte(c)) // a doubled enclosing character is one
					r.pos += 2
					continue
				}
				r.pos++
				if r.fieldEndsHere() {
					return loadField{text: string(b)}, r.consumeTerminator()
				}
				b = append(b, byte(c)) // an enclosing character inside the field
				continue
			}
			b = append(b, byte(c))
			r.pos++
			continue
		}
		if r.fieldEndsHere() {
			break
		}
		b = append(b, byte(c))
		r.pos++
	}
	end := r.consumeTerminator()
	text := string(b)
	if !enclosed && r.encl >= 0 && text == "NULL" {
		return loadField{null: true}, end
	}
	return loadField{text: text}, end
}

// fieldEndsHere reports whether a terminator (or the end) is at pos.
func (r *refFieldReader) fieldEndsHere() bool {
	return r.pos >= len(r.data) || r.at(r.f.LinesTerminated) || r.at(r.f.FieldsTerminated)
}

// consumeTerminator steps over the terminator at pos; it reports whether
// it ended the line. The line terminator wins when both match.
func (r *refFieldReader) consumeTerminator() bool {
	switch {
	case r.pos >= len(r.data):
		return true
	case r.at(r.f.LinesTerminated):
		r.pos += len(r.f.LinesTerminated)
		return true
	case r.at(r.f.FieldsTerminated):
		r.pos += len(r.f.FieldsTerminated)
		return false
	}
	return false
}

func refUnescape(c byte) byte {
	switch c {
	case '0':
		return 0
	case 'b':
		return '\b'
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	case 'Z':
		return 26
	}
	return c
}
