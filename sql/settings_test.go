package sql_test

import (
	"strings"
	"testing"

	"github.com/plrun/plrun/engine"
	"github.com/plrun/plrun/runtime/builtin"
)

// TestOpenSettingsValidated: --set at open (and a DSN parameter) follows
// SET's rules, and a value SET would clamp with a warning is an error at
// open, where no one would see the warning. No typo may lower durability.
func TestOpenSettingsValidated(t *testing.T) {
	bad := map[string]string{
		"innodb_flush_log_at_trx_commit": "7",
		"plrun_workers":                  "0",
		"enable_early_lock_release":      "yes",
		"innodb_lock_wait_timeout":       "5s",
		"transaction_isolation":          "SERIALIZABLE",
		"sql_mode":                       "NO_SUCH_MODE",
		"no_such_setting":                "1",
	}
	for name, val := range bad {
		e, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: t.TempDir(), Settings: map[string]string{name: val}})
		if err == nil {
			e.Close()
			t.Errorf("--set %s=%s: opened, want an error", name, val)
			continue
		}
		if !strings.Contains(err.Error(), name) {
			t.Errorf("--set %s=%s: error %q does not name the setting", name, val, err)
		}
	}
	good := map[string]string{
		"innodb_flush_log_at_trx_commit": "2",
		"enable_early_lock_release":      "true",
		"hotspot":                        "ON",
		"transaction_isolation":          "read-committed",
		"sql_mode":                       "ANSI",
	}
	e, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: t.TempDir(), Settings: good})
	if err != nil {
		t.Fatalf("good settings: %v", err)
	}
	defer e.Close()
	s := e.NewSession()
	defer s.Close()
	r, err := s.Exec(t.Context(), "SELECT @@innodb_flush_log_at_trx_commit, @@enable_early_lock_release, @@tx_isolation, @@sql_mode", nil)
	if err != nil {
		t.Fatal(err)
	}
	got := []string{}
	for _, v := range r.Rows[0] {
		got = append(got, v.String())
	}
	want := "2 1 READ-COMMITTED REAL_AS_FLOAT,PIPES_AS_CONCAT,ANSI_QUOTES,IGNORE_SPACE,ANSI"
	if strings.Join(got, " ") != want {
		t.Fatalf("got %q, want %q", strings.Join(got, " "), want)
	}
}
