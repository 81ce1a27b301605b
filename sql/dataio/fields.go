package dataio

import (
	"bytes"

	"github.com/plrun/plrun/sql/parse"
)

// loadField is one field LOAD DATA read from a line.
type loadField struct {
	text string
	null bool
}

// fieldReader splits a LOAD DATA file into lines of fields as MySQL's
// READ_INFO does: LINES STARTING BY skips to (and past) the prefix, a
// field may be enclosed (a doubled enclosing character is one), the escape
// character takes the next byte literally or as \0 \b \n \r \t \Z, an
// unenclosed \N is NULL, and so is an unenclosed NULL when ENCLOSED BY is
// set.
type fieldReader struct {
	data []byte
	pos  int
	f    parse.FileFormat
	esc  int // -1: none
	encl int
	// The terminators, and their first bytes (-1: none): most bytes are
	// neither, and are passed by one comparison each.
	fieldTerm, lineTerm   []byte
	fieldFirst, lineFirst int
	fields                []loadField // the line next returns, reused
}

func newFieldReader(data []byte, f parse.FileFormat) *fieldReader {
	r := &fieldReader{data: data, f: f, esc: -1, encl: -1, fieldFirst: -1, lineFirst: -1,
		fieldTerm: []byte(f.FieldsTerminated), lineTerm: []byte(f.LinesTerminated)}
	if f.Escaped != "" {
		r.esc = int(f.Escaped[0])
	}
	if f.Enclosed != "" {
		r.encl = int(f.Enclosed[0])
	}
	if len(r.fieldTerm) > 0 {
		r.fieldFirst = int(r.fieldTerm[0])
	}
	if len(r.lineTerm) > 0 {
		r.lineFirst = int(r.lineTerm[0])
	}
	return r
}

func (r *fieldReader) at(term []byte) bool {
	return len(term) > 0 && bytes.HasPrefix(r.data[r.pos:], term)
}

// next reads one line; ok is false at the end of the data. The fields
// are good until the next call.
func (r *fieldReader) next() (fields []loadField, ok bool) {
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
	fields = r.fields[:0]
	for {
		fld, endLine := r.field()
		fields = append(fields, fld)
		if endLine {
			r.fields = fields
			return fields, true
		}
	}
}

// field reads one field and what ends it: endLine is true at a line
// terminator or the end of the data.
func (r *fieldReader) field() (loadField, bool) {
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
			b = append(b, unescapeLoad(r.data[r.pos-1]))
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
		if b == nil && !enclosed {
			// Up to the first escape, a field is the file's bytes as
			// they are: passed over, copied once.
			start := r.pos
			for r.pos < len(r.data) && !(r.esc >= 0 && int(r.data[r.pos]) == r.esc) && !r.fieldEndsHere() {
				r.pos++
			}
			b = append(make([]byte, 0, r.pos-start+8), r.data[start:r.pos]...)
			continue
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
func (r *fieldReader) fieldEndsHere() bool {
	if r.pos >= len(r.data) {
		return true
	}
	c := int(r.data[r.pos])
	return c == r.lineFirst && r.at(r.lineTerm) || c == r.fieldFirst && r.at(r.fieldTerm)
}

// consumeTerminator steps over the terminator at pos; it reports whether
// it ended the line. The line terminator wins when both match.
func (r *fieldReader) consumeTerminator() bool {
	switch {
	case r.pos >= len(r.data):
		return true
	case r.at(r.lineTerm):
		r.pos += len(r.lineTerm)
		return true
	case r.at(r.fieldTerm):
		r.pos += len(r.fieldTerm)
		return false
	}
	return false
}

func unescapeLoad(c byte) byte {
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
