package kv

import (
	"errors"
	"path/filepath"
	"testing"
)

// TestReadFormat: no store, a store without its marker (new, or an
// upgrade that did not finish) and a marked one.
func TestReadFormat(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "store")
	if _, ok, err := ReadFormat(dir); ok || err != nil {
		t.Fatalf("no store: ok %v, err %v", ok, err)
	}
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b := s.NewBatch()
	if err := b.Set([]byte("r-some-row"), []byte("v")); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(7); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, ok, err := ReadFormat(dir); ok || err != nil {
		t.Fatalf("store without a marker: ok %v, err %v", ok, err)
	}
	s, err = Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b = s.NewBatch()
	if err := b.SetFormat(); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(8); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if f, ok, err := ReadFormat(dir); !ok || err != nil || f != Format {
		t.Fatalf("marked store: format %d, ok %v, err %v; want %d", f, ok, err, Format)
	}
	if err := CheckFormat(dir); err != nil {
		t.Fatal(err)
	}
}

// TestMarkFormat: a store marked newer is refused by Open.
func TestMarkFormat(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "store")
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if err := MarkFormat(dir, Format+1); err != nil {
		t.Fatal(err)
	}
	if f, ok, err := ReadFormat(dir); !ok || err != nil || f != Format+1 {
		t.Fatalf("format %d, ok %v, err %v; want %d", f, ok, err, Format+1)
	}
	if _, err := Open(dir, Options{}); !errors.Is(err, ErrNewerFormat) {
		t.Fatalf("Open of a newer store: %v, want ErrNewerFormat", err)
	}
}
