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
		File: "dir/transfer.lua", FirstLine: 2,
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

// A .sql file is one CREATE PROCEDURE of a SQL/PSM procedure; BodyLine is
// the file line its body starts on (so errors name file lines), and
// SHOW CREATE PROCEDURE prints the characteristics as written.
func TestParseSQLFile(t *testing.T) {
	src := "-- seed 003\nCREATE PROCEDURE test(IN n INT)\nCOMMENT 'seed'  DETERMINISTIC\nBEGIN\n  SET @a = n;\nEND;\n"
	def, err := procs.ParseFile("dir/test.sql", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := &procs.Definition{Name: "test", Language: "SQL", Body: "BEGIN\n  SET @a = n;\nEND", BodyLine: 4, File: "dir/test.sql", FirstLine: 1,
		Characteristics: "COMMENT 'seed' DETERMINISTIC", Params: []procs.Param{{Mode: procs.ModeIn, Name: "n", Type: "INT"}}}
	if !reflect.DeepEqual(def, want) {
		t.Errorf("got %+v\nwant %+v", def, want)
	}
	if got := procs.FormatCreate(def); got != "CREATE PROCEDURE `test`(IN `n` INT)\nCOMMENT 'seed' DETERMINISTIC\nBEGIN\n  SET @a = n;\nEND" {
		t.Errorf("FormatCreate = %q", got)
	}
	if _, err := procs.ParseFile("lua.sql", []byte("CREATE PROCEDURE p() LANGUAGE LUA AS $$ x = 1 $$")); err == nil || !strings.Contains(err.Error(), "lua.sql") {
		t.Errorf("a Lua procedure in a .sql file: err = %v", err)
	}
	dir := t.TempDir()
	for name, body := range map[string]string{"a.sql": src, "b.lua": "--! PROCEDURE b()\n", "notes.txt": "x"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	defs, err := procs.LoadDir(dir)
	if err != nil || len(defs) != 2 || defs[0].Language != "SQL" || defs[1].Language != "LUA" {
		t.Fatalf("LoadDir: %v %+v", err, defs)
	}
}
