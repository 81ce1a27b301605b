package sql_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/plrun/plrun/engine"
	"github.com/plrun/plrun/runtime/builtin"

	"github.com/plrun/plrun/sqlerr"
)

// TestLoadProcedureFilePriv checks that secure_file_priv bounds which files
// LOAD PROCEDURE may read, and cannot be changed at run time.
func TestLoadProcedureFilePriv(t *testing.T) {
	procs := t.TempDir()
	outside := t.TempDir()
	body := []byte("--! PROCEDURE p_priv(IN a INT)\nlocal x = a\n")
	for _, d := range []string{procs, outside} {
		if err := os.WriteFile(filepath.Join(d, "p_priv.lua"), body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	for _, c := range []struct {
		priv     string
		path     string
		wantCode uint16
	}{
		{"", filepath.Join(outside, "p_priv.lua"), 0},
		{procs, filepath.Join(procs, "p_priv.lua"), 0},
		{procs, procs, 0},
		{procs, filepath.Join(outside, "p_priv.lua"), 1290},
		{procs, filepath.Join(procs, "..", filepath.Base(outside), "p_priv.lua"), 1290},
		{"NULL", filepath.Join(procs, "p_priv.lua"), 1290},
	} {
		e, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: t.TempDir(), Settings: map[string]string{"secure_file_priv": c.priv}})
		if err != nil {
			t.Fatal(err)
		}
		s := e.NewSession()
		_, err = s.Exec(ctx, "LOAD PROCEDURE '"+c.path+"'", nil)
		var code uint16
		if se, ok := sqlerr.As(err); ok {
			code = se.Code
		} else if err != nil {
			t.Fatalf("priv %q, path %q: %v", c.priv, c.path, err)
		}
		if code != c.wantCode {
			t.Errorf("priv %q, LOAD PROCEDURE %q: error code %d (%v), want %d", c.priv, c.path, code, err, c.wantCode)
		}
		if _, err := s.Exec(ctx, "SET GLOBAL secure_file_priv = ''", nil); err == nil {
			t.Errorf("SET GLOBAL secure_file_priv succeeded; it is read-only")
		}
		s.Close()
		e.Close()
	}
}
