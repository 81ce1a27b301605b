package sql_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/plrun/plrun/engine"
	"github.com/plrun/plrun/runtime/builtin"
	"github.com/plrun/plrun/sql"
	"github.com/plrun/plrun/sqlerr"
)

// TestDataFilesPriv: secure_file_priv bounds the server files LOAD DATA
// INFILE reads and SELECT ... INTO OUTFILE writes ("" anywhere, a folder
// only there, NULL nowhere: 1290); LOAD DATA LOCAL reads the client's
// file, which the setting does not bound, and is refused (1148) by a
// session that has no way to read one.
func TestDataFilesPriv(t *testing.T) {
	allowed, outside := t.TempDir(), t.TempDir()
	for _, d := range []string{allowed, outside} {
		if err := os.WriteFile(filepath.Join(d, "in.txt"), []byte("1\n2\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	code := func(err error) uint16 {
		if se, ok := sqlerr.As(err); ok {
			return se.Code
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	}
	for _, c := range []struct {
		priv, dir string
		want      uint16
	}{
		{"", outside, 0},
		{allowed, allowed, 0},
		{allowed, outside, 1290},
		{"NULL", allowed, 1290},
	} {
		e, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: t.TempDir(), Settings: map[string]string{"secure_file_priv": c.priv}})
		if err != nil {
			t.Fatal(err)
		}
		s := e.NewSession()
		mustExec(t, s, "CREATE TABLE t (a INT)")
		_, err = s.Exec(ctx, "LOAD DATA INFILE '"+filepath.Join(c.dir, "in.txt")+"' INTO TABLE t", nil)
		if got := code(err); got != c.want {
			t.Errorf("priv %q: LOAD DATA INFILE in %s: code %d (%v), want %d", c.priv, c.dir, got, err, c.want)
		}
		out := filepath.Join(c.dir, "out-"+filepath.Base(t.TempDir())+".txt")
		_, err = s.Exec(ctx, "SELECT 1 INTO OUTFILE '"+out+"'", nil)
		if got := code(err); got != c.want {
			t.Errorf("priv %q: INTO OUTFILE in %s: code %d (%v), want %d", c.priv, c.dir, got, err, c.want)
		}
		_, err = s.Exec(ctx, "LOAD DATA LOCAL INFILE '"+filepath.Join(outside, "in.txt")+"' INTO TABLE t", nil)
		if got := code(err); got != 1148 {
			t.Errorf("priv %q: LOAD DATA LOCAL without a client file reader: code %d, want 1148", c.priv, got)
		}
		s.SetLocalFiles(sql.LocalFilesystem)
		r, err := s.Exec(ctx, "LOAD DATA LOCAL INFILE '"+filepath.Join(outside, "in.txt")+"' INTO TABLE t", nil)
		if err != nil || r.AffectedRows != 2 {
			t.Errorf("priv %q: LOAD DATA LOCAL: %v, %+v", c.priv, err, r)
		}
		s.Close()
		e.Close()
	}
}

// TestLoadDataMemoryBound: the file LOAD DATA reads whole counts against
// plrun_max_statement_memory (3170), before it is read.
func TestLoadDataMemoryBound(t *testing.T) {
	e, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	s := e.NewSession()
	defer s.Close()
	file := filepath.Join(t.TempDir(), "big.txt")
	line := []byte("0123456789012345678901234567890123456789\n")
	big := make([]byte, 0, 2<<20+len(line))
	for len(big) < 2<<20 {
		big = append(big, line...)
	}
	if err := os.WriteFile(file, big, 0o644); err != nil {
		t.Fatal(err)
	}
	mustExec(t, s, "CREATE TABLE t (a VARCHAR(50))")
	mustExec(t, s, "SET plrun_max_statement_memory = 1048576")
	_, err = s.Exec(context.Background(), "LOAD DATA INFILE '"+file+"' INTO TABLE t", nil)
	if se, ok := sqlerr.As(err); !ok || se.Code != 3170 {
		t.Fatalf("LOAD DATA of 2 MiB under a 1 MiB budget: %v, want 3170", err)
	}
	mustExec(t, s, "SET plrun_max_statement_memory = DEFAULT")
	if r := mustExec(t, s, "LOAD DATA INFILE '"+file+"' INTO TABLE t"); r.AffectedRows != uint64(len(big)/len(line)) {
		t.Fatalf("LOAD DATA: %d rows, want %d", r.AffectedRows, len(big)/len(line))
	}
}
