package server

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestOptionSizeSuffixes: plrun serve takes mysqld's size suffixes on
// integer settings in its option files and in --set, and the startup-only
// plrun_cache_size from either.
func TestOptionSizeSuffixes(t *testing.T) {
	data := t.TempDir()
	writeFile(t, filepath.Join(data, "plrun.cnf"), `[plrun]
listen = 127.0.0.1:0
plrun-cache-size = 512M
max_allowed_packet = 16m
`)
	s, err := serveArgs(t, "--data", data, "--set", "plrun_checkpoint_log_size=2G")
	if err != nil {
		t.Fatal(err)
	}
	db := s.db(t, "root", "root")
	for name, want := range map[string]string{
		"plrun_cache_size":          "536870912 GLOBAL plrun.cnf",
		"max_allowed_packet":        "16777216 GLOBAL plrun.cnf",
		"plrun_checkpoint_log_size": "2147483648 COMMAND_LINE .",
	} {
		if got := varInfo(t, db, name); got != want {
			t.Errorf("%s: got %q, want %q", name, got, want)
		}
	}
	s.stop(t)

	// out of range (8M is the least) is refused at start, naming the line
	writeFile(t, filepath.Join(data, "plrun.cnf"), "[plrun]\nlisten = 127.0.0.1:0\nplrun_cache_size = 1M\n")
	if _, err := serveArgs(t, "--data", data); err == nil {
		t.Fatal("plrun_cache_size = 1M was accepted")
	} else if want := "plrun.cnf:3: plrun_cache_size = 1M: ERROR 1231"; !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want %q", err, want)
	}
}
