package wal

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func writeSnap(t *testing.T, dir string, lsn uint64, body []byte) {
	t.Helper()
	if err := WriteSnapshot(dir, lsn, func(w io.Writer) error {
		_, err := w.Write(body)
		return err
	}); err != nil {
		t.Fatal(err)
	}
}

func readLatest(t *testing.T, dir string) (uint64, []byte, error) {
	t.Helper()
	lsn, r, err := OpenLatestSnapshot(dir)
	if err != nil || r == nil {
		return lsn, nil, err
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	return lsn, b, err
}

func TestSnapshotRoundTripAndReplacement(t *testing.T) {
	dir := t.TempDir()
	if lsn, b, err := readLatest(t, dir); lsn != 0 || b != nil || err != nil {
		t.Fatalf("no snapshot: got %d %q %v", lsn, b, err)
	}
	if lsn, r, err := OpenLatestSnapshot(filepath.Join(dir, "missing")); lsn != 0 || r != nil || err != nil {
		t.Fatalf("missing dir: got %d %v %v", lsn, r, err)
	}
	big := bytes.Repeat([]byte("row;"), 1<<19) // 2 MiB, more than one buffer
	writeSnap(t, dir, 10, []byte("first"))
	writeSnap(t, dir, 25, big)
	lsn, b, err := readLatest(t, dir)
	if err != nil || lsn != 25 || !bytes.Equal(b, big) {
		t.Fatalf("latest: lsn %d, %d bytes, err %v", lsn, len(b), err)
	}
	des, _ := os.ReadDir(dir)
	if len(des) != 1 || des[0].Name() != snapshotName(25) {
		t.Fatalf("older snapshot not removed: %v", des)
	}
	if err := WriteSnapshot(dir, 5, func(io.Writer) error { return nil }); err == nil {
		t.Fatal("WriteSnapshot accepted an lsn below the latest snapshot")
	}
	writeSnap(t, dir, 25, nil) // same lsn again replaces it
	if lsn, b, err := readLatest(t, dir); lsn != 25 || len(b) != 0 || err != nil {
		t.Fatalf("replaced: %d %q %v", lsn, b, err)
	}
}

func TestSnapshotWriteErrorLeavesPrevious(t *testing.T) {
	dir := t.TempDir()
	writeSnap(t, dir, 3, []byte("good"))
	boom := errors.New("disk full")
	err := WriteSnapshot(dir, 9, func(w io.Writer) error {
		w.Write([]byte("half"))
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	if lsn, b, err := readLatest(t, dir); lsn != 3 || string(b) != "good" || err != nil {
		t.Fatalf("after failed write: %d %q %v", lsn, b, err)
	}
	des, _ := os.ReadDir(dir)
	if len(des) != 1 {
		t.Fatalf("temporary file left behind: %v", des)
	}
}

func TestSnapshotCorruptIsError(t *testing.T) {
	body := []byte("the whole state of the database")
	for _, tc := range []struct {
		name   string
		damage func([]byte) []byte
	}{
		{"flipped body byte", func(b []byte) []byte { b[snapshotHeaderSize+3] ^= 1; return b }},
		{"flipped lsn", func(b []byte) []byte { b[9] ^= 1; return b }},
		{"truncated", func(b []byte) []byte { return b[:len(b)-5] }},
		{"extended", func(b []byte) []byte { return append(b, 0) }},
		{"tiny", func(b []byte) []byte { return b[:7] }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeSnap(t, dir, 42, body)
			path := filepath.Join(dir, snapshotName(42))
			b, _ := os.ReadFile(path)
			os.WriteFile(path, tc.damage(b), 0o640)
			lsn, r, err := OpenLatestSnapshot(dir)
			if !errors.Is(err, ErrCorrupt) || r != nil || lsn != 0 {
				t.Fatalf("got lsn %d reader %v err %v, want ErrCorrupt", lsn, r, err)
			}
		})
	}
}
