package dataio

import (
	"testing"

	"github.com/plrun/plrun/sql/parse"
)

// FuzzFieldReader: LOAD DATA's line and field splitting ends on any input
// and any FIELDS / LINES options, never panics, and always moves forward.
func FuzzFieldReader(f *testing.F) {
	f.Add([]byte("1\tabc\n\\N\t\"q\"\n"), "\t", "", "\\", "", "\n")
	f.Add([]byte("\"1\",\"a,b\"\n\"2\",\"say \"\"hi\"\"\"\n3,\\N"), ",", "\"", "\\", "", "\n")
	f.Add([]byte("junk>>1|one;>>2|two;zzz\n>>3|th\\;ree;"), "|", "", "\\", ">>", ";")
	f.Add([]byte("a,b\\"), ",", "", "\\", "", "\n")
	f.Fuzz(func(t *testing.T, data []byte, term, encl, esc, start, lineTerm string) {
		if term == "" && encl == "" || len(encl) > 1 || len(esc) > 1 {
			return // refused before reading (fixed-size rows, 1083)
		}
		r := newFieldReader(data, parse.FileFormat{FieldsTerminated: term, Enclosed: encl, Escaped: esc, LinesStarting: start, LinesTerminated: lineTerm})
		for lines := 0; ; lines++ {
			before := r.pos
			if _, ok := r.next(); !ok {
				break
			}
			if r.pos <= before || lines > len(data)+1 {
				t.Fatalf("no progress at %d of %q", before, data)
			}
		}
	})
}

// FuzzFieldReaderAgainstReference: the reader splits every input into
// the same lines and fields as the plain byte-at-a-time reader.
func FuzzFieldReaderAgainstReference(f *testing.F) {
	f.Add([]byte("1\tabc\n\\N\t\"q\"\n"), "\t", "", "\\", "", "\n")
	f.Add([]byte("\"1\",\"a,b\"\n\"2\",\"say \"\"hi\"\"\"\n3,\\N"), ",", "\"", "\\", "", "\n")
	f.Add([]byte("junk>>1|one;>>2|two;zzz\n>>3|th\\;ree;"), "|", "", "\\", ">>", ";")
	f.Add([]byte("a\\tb,NULL,c\\\\,\\N\r\nx"), ",", "", "\\", "", "\r\n")
	f.Fuzz(func(t *testing.T, data []byte, term, encl, esc, start, lineTerm string) {
		if term == "" && encl == "" || len(encl) > 1 || len(esc) > 1 {
			return
		}
		ff := parse.FileFormat{FieldsTerminated: term, Enclosed: encl, Escaped: esc, LinesStarting: start, LinesTerminated: lineTerm}
		r, ref := newFieldReader(data, ff), newRefFieldReader(data, ff)
		for lines := 0; lines <= len(data)+1; lines++ {
			got, ok := r.next()
			want, wantOK := ref.next()
			if ok != wantOK || len(got) != len(want) {
				t.Fatalf("line %d of %q: %v %v, want %v %v", lines, data, got, ok, want, wantOK)
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("line %d field %d of %q: %+v, want %+v", lines, i, data, got[i], want[i])
				}
			}
			if !ok {
				return
			}
		}
	})
}
