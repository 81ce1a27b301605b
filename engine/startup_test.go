package engine_test

import (
	"context"
	"strings"
	"testing"

	"github.com/plrun/plrun/engine"
	"github.com/plrun/plrun/runtime/builtin"
)

// TestCacheSizeAtOpen: plrun_cache_size is given at open (Config.Settings)
// and kept; a value out of its range or not a number is refused there, and
// no SET changes it.
func TestCacheSizeAtOpen(t *testing.T) {
	dir := t.TempDir()
	e, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: dir, Settings: map[string]string{"plrun_cache_size": "8388608"}})
	if err != nil {
		t.Fatal(err)
	}
	s := e.NewSession()
	if v := variable(t, s, "plrun_cache_size"); v != "8388608" {
		t.Errorf("plrun_cache_size = %s, want 8388608", v)
	}
	if _, err := s.Exec(context.Background(), "SET GLOBAL plrun_cache_size = 16777216", nil); err == nil || !strings.Contains(err.Error(), "1238") {
		t.Errorf("SET GLOBAL plrun_cache_size: %v, want 1238", err)
	}
	e.Close()
	for _, bad := range []string{"1000", "lots"} {
		if _, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: dir, Settings: map[string]string{"plrun_cache_size": bad}}); err == nil || !strings.Contains(err.Error(), "plrun_cache_size") {
			t.Errorf("plrun_cache_size = %s at open: %v, want refused", bad, err)
		}
	}
}
