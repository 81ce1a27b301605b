package enginetest

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2"

	"github.com/plrun/plrun"
	"github.com/plrun/plrun/storage/kv"
)

// storeFormatKey is where storage/kv keeps the store's format (a uvarint);
// markNewerFormat checks it holds kv.Format before changing it, so a
// renamed key fails this test instead of testing nothing.
const storeFormatKey = "m\x00format"

// markNewerFormat rewrites the format of the (closed) table store of dir
// to kv.Format+1, as a newer plrun would have left it, with pebble
// directly.
func markNewerFormat(t testing.TB, dir string) {
	t.Helper()
	db, err := pebble.Open(filepath.Join(dir, "store"), &pebble.Options{DisableWAL: true, FormatMajorVersion: pebble.FormatNewest, Logger: quietPebble{}})
	if err != nil {
		t.Fatal(err)
	}
	v, closer, err := db.Get([]byte(storeFormatKey))
	if err != nil {
		t.Fatalf("the store has no format at %q: %v", storeFormatKey, err)
	}
	if f, n := binary.Uvarint(v); n <= 0 || f != kv.Format {
		t.Fatalf("the store's format key holds %x, want uvarint %d", v, kv.Format)
	}
	closer.Close()
	if err := db.Set([]byte(storeFormatKey), binary.AppendUvarint(nil, kv.Format+1), pebble.NoSync); err != nil {
		t.Fatal(err)
	}
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

// quietPebble discards pebble's messages.
type quietPebble struct{}

func (quietPebble) Infof(string, ...any)  {}
func (quietPebble) Errorf(string, ...any) {}
func (quietPebble) Fatalf(format string, args ...any) {
	panic(fmt.Sprintf(format, args...))
}

// newerFormatFolder makes a data folder with a table and rows, closed
// cleanly, whose store a newer plrun marked.
func newerFormatFolder(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	_, s, closeAll := openSession(t, dir)
	execAll(t, s, "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10))", "INSERT INTO t VALUES (1, 'a'), (2, 'b')")
	closeAll()
	markNewerFormat(t, dir)
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
