package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plrun/plrun"
	"github.com/plrun/plrun/storage/kv"
)

// TestNewerFormatOneLine: a data folder a newer plrun wrote is refused by
// the REPL's batch mode, `plrun dump` and `plrun recover --truncate-damaged`
// with one line on stderr that names the folder and both formats, exit
// status 1, nothing on stdout, and no file of the folder touched.
func TestNewerFormatOneLine(t *testing.T) {
	dir := t.TempDir()
	db, err := plrun.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := db.Session()
	if _, err := s.Exec(t.Context(), "CREATE TABLE t (id INT PRIMARY KEY)"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := kv.MarkFormat(filepath.Join(dir, "store"), kv.Format+1); err != nil {
		t.Fatal(err)
	}
	before := filesOf(t, dir)
	for _, args := range [][]string{
		{"--data", dir, "-e", "SELECT 1"},
		{"--data", dir, "dump"},
		{"--data", dir, "recover", "--truncate-damaged"},
	} {
		var stdout, stderr bytes.Buffer
		status := run(args, strings.NewReader(""), &stdout, &stderr)
		msg := stderr.String()
		if status != 1 || stdout.Len() != 0 {
			t.Errorf("%v: status %d, stdout %q; want 1 and nothing", args, status, stdout.String())
		}
		if strings.Count(msg, "\n") != 1 || !strings.HasSuffix(msg, "\n") {
			t.Errorf("%v: want one line on stderr, got %q", args, msg)
		}
		if strings.Contains(msg, "ERROR 1105") {
			t.Errorf("%v: %q: the code of an error without one of its own is noise at a shell", args, msg)
		}
		if strings.Count(msg, dir) != 1 {
			t.Errorf("%v: %q does not name the folder once", args, msg)
		}
		for _, want := range []string{"written by a newer plrun", fmt.Sprintf("format %d", kv.Format+1), fmt.Sprintf("up to %d", kv.Format)} {
			if !strings.Contains(msg, want) {
				t.Errorf("%v: %q does not say %q", args, msg, want)
			}
		}
	}
	if after := filesOf(t, dir); after != before {
		t.Errorf("the folder changed:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

// filesOf lists dir's files with their contents' sizes and bytes (LOCK
// aside: every process that tries the folder writes its pid there).
func filesOf(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || info.Name() == "LOCK" {
			return err
		}
		data, err := os.ReadFile(p)
		fmt.Fprintf(&b, "%s %d %x\n", p, len(data), data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
