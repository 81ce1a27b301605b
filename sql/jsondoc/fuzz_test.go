package jsondoc

import "testing"

// FuzzDocument: no text or path panics; what parses prints as JSON that
// parses to an equal document, and every edit leaves valid JSON.
func FuzzDocument(f *testing.F) {
	f.Add(`{"a": [1, 2, {"b": "x\u00e9"}], "c": null}`, `$.a[last]`)
	f.Add(`[1, [2, [3]]]`, `$**[0]`)
	f.Add(`"s"`, `$[0]`)
	f.Add(`{"k": true}`, `$."k"`)
	f.Fuzz(func(t *testing.T, text, path string) {
		doc, err := Parse(text)
		p, perr := ParsePath(path)
		if err != nil {
			return
		}
		out := doc.String()
		again, err := Parse(out)
		if err != nil || !Equal(doc, again) {
			t.Fatalf("%q printed as %q, which reads back %v", text, out, err)
		}
		if perr != nil {
			return
		}
		p.Find(doc)
		if !p.Wild() {
			for _, m := range []Mode{SetMode, InsertMode, ReplaceMode} {
				d, _ := Parse(text)
				if _, err := Parse(Edit(d, p, NumberNode("7"), m).String()); err != nil {
					t.Fatalf("edit %s of %q: %v", path, text, err)
				}
			}
			d, _ := Parse(text)
			Remove(d, p)
			if _, err := Parse(d.String()); err != nil {
				t.Fatalf("remove %s of %q: %v", path, text, err)
			}
		}
		Contains(doc, again)
	})
}
