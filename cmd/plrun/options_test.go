package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOptionFiles: the REPL and batch mode read the data folder's
// plrun.cnf ([plrun] and [plrun-client]) and --defaults-file, as serve
// does, below plrun-auto.cnf and the command line.
func TestOptionFiles(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	if status, _, errOut := plrunCLI(t, "", "--data", data, "--create", "-e", "SET PERSIST lock_wait_timeout = 77"); status != 0 {
		t.Fatal(errOut)
	}
	cnf := "[plrun]\nhotspot\nlock_wait_timeout = 5\ninnodb_lock_wait_timeout = 6\n[plrun-client]\nskip-column-names\n[plrun-serve]\nlisten = 127.0.0.1:1\n"
	if err := os.WriteFile(filepath.Join(data, "plrun.cnf"), []byte(cnf), 0o644); err != nil {
		t.Fatal(err)
	}
	q := "SELECT VARIABLE_NAME, VARIABLE_SOURCE FROM performance_schema.variables_info WHERE VARIABLE_NAME IN ('hotspot', 'lock_wait_timeout', 'innodb_lock_wait_timeout') ORDER BY 1; SELECT @@global.lock_wait_timeout, @@global.innodb_lock_wait_timeout"
	status, out, errOut := plrunCLI(t, "", "--data", data, "--set", "innodb_lock_wait_timeout=9", "-e", q)
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	// no column names: skip-column-names came from [plrun-client]
	want := "hotspot\tGLOBAL\ninnodb_lock_wait_timeout\tCOMMAND_LINE\nlock_wait_timeout\tPERSISTED\n77\t9\n"
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}

	// a serve flag in [plrun] is not the REPL's: an error naming file:line
	if err := os.WriteFile(filepath.Join(data, "plrun.cnf"), []byte("[plrun]\nlisten = x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	status, _, errOut = plrunCLI(t, "", "--data", data, "-e", "SELECT 1")
	if status != 2 || !strings.Contains(errOut, "plrun.cnf:2: unknown variable 'listen=x'") {
		t.Errorf("status %d, stderr %q", status, errOut)
	}
	// --no-defaults skips it; --defaults-file replaces it
	if status, out, errOut := plrunCLI(t, "", "--no-defaults", "--data", data, "-N", "-e", "SELECT @@global.hotspot"); status != 0 || out != "0\n" {
		t.Errorf("--no-defaults: %d %q %q", status, out, errOut)
	}
	other := filepath.Join(dir, "other.cnf")
	if err := os.WriteFile(other, []byte("[plrun]\ndata = "+data+"\nhotspot = ON\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if status, out, errOut := plrunCLI(t, "", "--defaults-file="+other, "-N", "-e", "SELECT @@global.hotspot"); status != 0 || out != "1\n" {
		t.Errorf("--defaults-file: %d %q %q", status, out, errOut)
	}
	if status, _, errOut := plrunCLI(t, "", "-N", "--defaults-file="+other, "-e", "SELECT 1"); status != 2 || !strings.Contains(errOut, "--defaults-file must be the first argument of plrun") {
		t.Errorf("not first: %d %q", status, errOut)
	}
	if status, _, errOut := plrunCLI(t, "", "--defaults-file="+other, "dump"); status != 2 || !strings.Contains(errOut, "dump reads no option file") {
		t.Errorf("dump: %d %q", status, errOut)
	}
}
