package sql_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProcFileLines: errors of a procedure loaded from a file name the
// file and the line in it — the header is line 1, so body line N is file
// line N+1 (they used to be one line off) — at compile time and at run
// time.
func TestProcFileLines(t *testing.T) {
	h := newHarness(t, t.TempDir())
	defer h.close()
	s := h.e.NewSession()
	ctx := context.Background()
	dir := t.TempDir()
	files := map[string]string{
		"bad.lua": "--! PROCEDURE bad_lua()\nlocal a = 1\nlocal b = = 2\n",
		"bad.js":  "//! PROCEDURE bad_js()\nlet a = 1;\nlet b = = 2;\n",
		"nil.lua": "--! PROCEDURE nil_lua()\nlocal a = nil\nlocal b = a.x\n",
		"nil.js":  "//! PROCEDURE nil_js()\nlet a = null;\nlet b = a.x;\n",
		"dup.lua": "--! PROCEDURE dup_lua()\n\nsession:runSql('INSERT INTO t VALUES (1)')\n",
		"dup.js":  "//! PROCEDURE dup_js()\n\nsession.runSql('INSERT INTO t VALUES (1)');\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Exec(ctx, "CREATE TABLE t (id INT PRIMARY KEY)", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Exec(ctx, "INSERT INTO t VALUES (1)", nil); err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{"lua", "js"} {
		bad := filepath.Join(dir, "bad."+ext)
		_, err := s.Exec(ctx, "LOAD PROCEDURE '"+bad+"'", nil)
		if want := "Syntax error in PROCEDURE bad_" + ext + " (" + bad + " line 3)"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("LOAD %s: %v, want an error containing %q", bad, err, want)
		}
		for _, p := range []string{"nil", "dup"} {
			file := filepath.Join(dir, p+"."+ext)
			if _, err := s.Exec(ctx, "LOAD PROCEDURE '"+file+"'", nil); err != nil {
				t.Fatalf("LOAD %s: %v", file, err)
			}
			_, err := s.Exec(ctx, "CALL "+p+"_"+ext+"()", nil)
			if want := p + "_" + ext + " (" + file + " line 3): "; err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("CALL %s_%s: %v, want an error containing %q", p, ext, err, want)
			}
		}
	}
}
