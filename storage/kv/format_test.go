package kv

import (
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
