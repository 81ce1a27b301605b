package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plrun/plrun/engine"
	"github.com/plrun/plrun/runtime/builtin"
	plsql "github.com/plrun/plrun/sql"
	"github.com/plrun/plrun/sqlerr"
)

func variable(t *testing.T, s *plsql.Session, name string) string {
	t.Helper()
	r, err := s.Exec(context.Background(), "SHOW GLOBAL VARIABLES LIKE '"+name+"'", nil)
	if err != nil || len(r.Rows) != 1 {
		t.Fatalf("SHOW VARIABLES LIKE %s: %v", name, err)
	}
	return r.Rows[0][1].String()
}

// TestPersistedSettingsSurviveRestart: ALTER SYSTEM SET (OceanBase) and
// SET PERSIST (MySQL 8) outlive a restart; SET PERSIST_ONLY takes effect
// at the next start; plain SET GLOBAL does not persist; RESET PERSIST
// forgets; --set at open wins over a persisted value for that run.
func TestPersistedSettingsSurviveRestart(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	open := func(settings map[string]string) (*engine.Engine, *plsql.Session) {
		e, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: dir, Settings: settings})
		if err != nil {
			t.Fatal(err)
		}
		return e, e.NewSession()
	}
	e, s := open(nil)
	for _, q := range []string{
		"ALTER SYSTEM SET enable_early_lock_release = ON",
		"SET PERSIST innodb_lock_wait_timeout = 7",
		"SET PERSIST_ONLY hotspot = ON",
		"SET GLOBAL plrun_workers = 9",
		"SET PERSIST max_execution_time = 1234",
	} {
		if _, err := s.Exec(ctx, q, nil); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if got := variable(t, s, "hotspot"); got != "OFF" {
		t.Errorf("SET PERSIST_ONLY changed the running value: hotspot = %s", got)
	}
	if _, err := s.Exec(ctx, "RESET PERSIST max_execution_time", nil); err != nil {
		t.Fatal(err)
	}
	_, err := s.Exec(ctx, "RESET PERSIST plrun_workers", nil)
	if e, ok := sqlerr.As(err); !ok || e.Code != sqlerr.ErVarNotPersisted {
		t.Errorf("RESET PERSIST of a variable never persisted: %v, want 3615", err)
	}
	if _, err := s.Exec(ctx, "RESET PERSIST IF EXISTS plrun_workers", nil); err != nil {
		t.Errorf("RESET PERSIST IF EXISTS: %v", err)
	}
	s.Close()
	e.Close()

	e, s = open(map[string]string{"innodb_lock_wait_timeout": "3"})
	for name, want := range map[string]string{
		"enable_early_lock_release": "ON",
		"innodb_lock_wait_timeout":  "3", // --set wins for this run
		"hotspot":                   "ON",
		"plrun_workers":             "64", // SET GLOBAL is not persisted
		"max_execution_time":        "0",  // RESET PERSIST
	} {
		if got := variable(t, s, name); got != want {
			t.Errorf("after restart %s = %s, want %s", name, got, want)
		}
	}
	s.Close()
	e.Close()
	e, s = open(nil)
	if got := variable(t, s, "innodb_lock_wait_timeout"); got != "7" {
		t.Errorf("--set changed the persisted value: %s, want 7", got)
	}
	if _, err := s.Exec(ctx, "RESET PERSIST", nil); err != nil {
		t.Fatal(err)
	}
	s.Close()
	e.Close()
	e, s = open(nil)
	if got := variable(t, s, "enable_early_lock_release"); got != "OFF" {
		t.Errorf("after RESET PERSIST and a restart ELR = %s, want OFF", got)
	}
	s.Close()
	e.Close()
}

// TestBadPersistedSettingRefusesOpen: a persisted value plrun cannot apply
// stops the open with an error naming the file, rather than being skipped.
func TestBadPersistedSettingRefusesOpen(t *testing.T) {
	dir := t.TempDir()
	bad := `{"version": 1, "settings": {"innodb_flush_log_at_trx_commit": "7"}}`
	if err := os.WriteFile(filepath.Join(dir, "plrun-auto.cnf"), []byte(bad), 0o640); err != nil {
		t.Fatal(err)
	}
	_, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: dir})
	if err == nil || !strings.Contains(err.Error(), "plrun-auto.cnf") {
		t.Fatalf("open with a bad persisted value: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "plrun-auto.cnf"), []byte("not json"), 0o640); err != nil {
		t.Fatal(err)
	}
	if _, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: dir}); err == nil || !strings.Contains(err.Error(), "plrun-auto.cnf") {
		t.Fatalf("open with a damaged file: %v", err)
	}
}
