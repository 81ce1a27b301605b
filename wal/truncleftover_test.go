package wal

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLogRemovesTruncationTemps: a process killed inside TruncateFront,
// while it wrote the START segment's temporary file, leaves that file;
// Open removes it (and says so), keeps the log whole, and leaves other
// files alone.
func TestLogRemovesTruncationTemps(t *testing.T) {
	dir := t.TempDir()
	l := mustOpen(t, dir, Options{SegmentSize: 300})
	appendGroups(t, l, 30, 4) // lsns 1..120
	if err := l.TruncateBefore(41); err != nil {
		t.Fatal(err)
	}
	l.Close()
	segs, err := listSegments(dir)
	if err != nil || len(segs) < 2 {
		t.Fatalf("segments %v, %v", segs, err)
	}
	// A half-written START file for the next truncation, and an END one.
	start := filepath.Base(segs[1].path) + ".START.TEMP"
	end := filepath.Base(segs[len(segs)-1].path) + ".END.TEMP"
	other := "notes.TEMP"
	for _, n := range []string{start, end, other} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("half a segment"), 0o640); err != nil {
			t.Fatal(err)
		}
	}
	var said []string
	l = mustOpen(t, dir, Options{SegmentSize: 300, Logf: func(f string, args ...any) { said = append(said, f) }})
	defer l.Close()
	for _, n := range []string{start, end} {
		if _, err := os.Stat(filepath.Join(dir, n)); !os.IsNotExist(err) {
			t.Errorf("%s still there after Open (%v)", n, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, other)); err != nil {
		t.Errorf("Open removed %s, which is no truncation's: %v", other, err)
	}
	if len(said) != 1 || !strings.Contains(said[0], "truncation") {
		t.Errorf("Open reported %q", said)
	}
	checkSeq(t, replayAll(t, l, 40), 41, 120)
}
