package enginetest

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plrun/plrun"
	"github.com/plrun/plrun/storage/kv"
)

// newerFormatFolder makes a data folder with a table and rows, closed
// cleanly, whose store a newer plrun marked.
func newerFormatFolder(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	_, s, closeAll := openSession(t, dir)
	execAll(t, s, "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10))", "INSERT INTO t VALUES (1, 'a'), (2, 'b')")
	closeAll()
	if err := kv.MarkFormat(filepath.Join(dir, "store"), kv.Format+1); err != nil {
		t.Fatal(err)
	}
	return dir
}

// folderState is every file of dir with its size and checksum (the LOCK
// file's content aside: any process that tries the folder writes its pid
// there).
func folderState(t testing.TB, dir string) map[string]string {
	t.Helper()
	st := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() {
			st[rel+"/"] = "dir"
			return nil
		}
		if rel == "LOCK" {
			st[rel] = "lock"
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		st[rel] = fmt.Sprintf("%d bytes %x", len(b), sha256.Sum256(b))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestNewerFormatRefused: a folder whose store a newer plrun marked is
// refused with an error naming both formats, and left exactly as it was.
func TestNewerFormatRefused(t *testing.T) {
	dir := newerFormatFolder(t)
	before := folderState(t, dir)
	for i := 0; i < 2; i++ { // twice: a refused open must not change what the next one sees
		db, err := plrun.Open(dir, nil)
		if err == nil {
			db.Close()
			t.Fatal("a folder of a newer format was opened")
		}
		msg := err.Error()
		for _, want := range []string{"newer plrun", fmt.Sprintf("format %d", kv.Format+1), fmt.Sprintf("up to %d", kv.Format)} {
			if !strings.Contains(msg, want) {
				t.Errorf("error %q does not say %q", msg, want)
			}
		}
		if errCode(err) == 0 {
			t.Errorf("error %q carries no MySQL code", msg)
		}
	}
	after := folderState(t, dir)
	for f, s := range before {
		if after[f] != s {
			t.Errorf("%s changed by a refused open: %s, now %q", f, s, after[f])
		}
	}
	for f, s := range after {
		if _, ok := before[f]; !ok {
			t.Errorf("%s created by a refused open (%s)", f, s)
		}
	}
}
