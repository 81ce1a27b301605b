package engine_test

import (
	"strings"
	"testing"

	"github.com/plrun/plrun/engine"
	"github.com/plrun/plrun/runtime/builtin"
)

// TestDataDirIsLocked: a second Open of an open data directory fails
// clearly instead of sharing (and later overwriting) its log; after Close
// it opens again.
func TestDataDirIsLocked(t *testing.T) {
	dir := t.TempDir()
	e, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if e2, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: dir}); err == nil {
		e2.Close()
		t.Fatal("a second Open of the same data directory succeeded")
	} else if !strings.Contains(err.Error(), "in use by another plrun process") {
		t.Fatalf("second Open: %v", err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	e3, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: dir})
	if err != nil {
		t.Fatalf("Open after Close: %v", err)
	}
	e3.Close()
}
