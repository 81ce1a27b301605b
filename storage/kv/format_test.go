package kv

import (
	"errors"
	"fmt"
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

// BenchmarkReadFormat is what Open's read-only look at the format costs
// on a store of 200k flushed rows in several tables.
func BenchmarkReadFormat(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "store")
	s, err := Open(dir, Options{})
	if err != nil {
		b.Fatal(err)
	}
	val := make([]byte, 100)
	for table := uint64(1); table <= 4; table++ {
		bt := s.NewBatch()
		for i := 0; i < 50_000; i++ {
			if err := bt.Set(RowKey(nil, table, fmt.Sprintf("%08d", i)), val); err != nil {
				b.Fatal(err)
			}
		}
		if err := bt.SetFormat(); err != nil {
			b.Fatal(err)
		}
		if err := bt.Commit(table); err != nil {
			b.Fatal(err)
		}
		if _, err := s.Flush(); err != nil {
			b.Fatal(err)
		}
	}
	s.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if f, ok, err := ReadFormat(dir); err != nil || !ok || f != Format {
			b.Fatal(f, ok, err)
		}
	}
}
