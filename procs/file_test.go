package procs_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sqlerr"
)

func TestParseFile(t *testing.T) {
	def, err := procs.ParseFile("dir/transfer.lua", []byte("\xef\xbb\xbf--! PROCEDURE transfer(IN a INT, OUT b DECIMAL(12,2)) COMMENT 'x'\r\nb = a\nreturn\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := &procs.Definition{Name: "transfer", Language: "LUA", Body: "b = a\nreturn\n", Delimiter: "$$",
		Params: []procs.Param{{Mode: procs.ModeIn, Name: "a", Type: "INT"}, {Mode: procs.ModeOut, Name: "b", Type: "DECIMAL(12,2)"}}}
	if !reflect.DeepEqual(def, want) {
		t.Errorf("got %+v\nwant %+v", def, want)
	}
	def, err = procs.ParseFile("x.JS", []byte("//! PROCEDURE other_name()"))
	if err != nil || def.Language != "JAVASCRIPT" || def.Name != "other_name" || def.Body != "" {
		t.Errorf("js: %+v %v", def, err)
	}
}

func TestParseFileErrors(t *testing.T) {
	tests := []struct{ name, content, want string }{
		{"p.py", "#! PROCEDURE p()", "must end in .lua, .js or .sql"},
		{"p.lua", "//! PROCEDURE p()\n", "p.lua line 1: expected '--! PROCEDURE"},
		{"p.js", "--! PROCEDURE p()\n", "expected '//! PROCEDURE"},
		{"p.lua", "", "expected '--! PROCEDURE"},
		{"p.lua", "--! FUNCTION p()\n", "p.lua: You have an error in your SQL syntax"},
		{"p.lua", "--! PROCEDURE p(IN a INT\nbody", "near ''"},
		{"p.lua", "--! PROCEDURE p() LANGUAGE JAVASCRIPT\n", "near 'LANGUAGE JAVASCRIPT'"},
		{"p.lua", "--! PROCEDURE p() trailing\n", "near 'trailing'"},
	}
	for _, tt := range tests {
		_, err := procs.ParseFile(tt.name, []byte(tt.content))
		e, ok := sqlerr.As(err)
		if !ok || e.Code != sqlerr.ErParse || !strings.Contains(e.Message, tt.want) {
			t.Errorf("%s %q: err = %v, want 1064 containing %q", tt.name, tt.content, err, tt.want)
		}
	}
}

func TestLoadDir(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"b.js":      "//! PROCEDURE b_js()\nlet x = 1;",
		"a.lua":     "--! PROCEDURE a_lua(IN n INT)\nlocal x = n",
		"notes.txt": "ignored",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "sub.lua"), 0o755); err != nil {
		t.Fatal(err)
	}
	defs, err := procs.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(defs) != 2 || defs[0].Name != "a_lua" || defs[1].Name != "b_js" {
		t.Fatalf("LoadDir = %+v", defs)
	}
	if err := os.WriteFile(filepath.Join(dir, "c.lua"), []byte("no header"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := procs.LoadDir(dir); err == nil || !strings.Contains(err.Error(), "c.lua") {
		t.Fatalf("bad file: err = %v", err)
	}
	if _, err := procs.LoadDir(filepath.Join(dir, "missing")); err == nil {
		t.Fatal("missing dir: no error")
	}
}
