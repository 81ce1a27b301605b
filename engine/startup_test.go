package engine_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/plrun/plrun/engine"
	"github.com/plrun/plrun/runtime/builtin"
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sqlerr"
)

func wantCode(t *testing.T, what string, err error, code uint16) {
	t.Helper()
	var e *sqlerr.Error
	if !errors.As(err, &e) || e.Code != code {
		t.Errorf("%s: %v, want error %d", what, err, code)
	}
}

// TestSizeSuffixesAndStartupSettings: integer settings from the command
// line and option files take mysqld's K/M/G/T suffixes; plrun_cache_size
// is set there (checked against its range) and by no SET; SET itself
// takes no suffix (1232, as MariaDB).
func TestSizeSuffixesAndStartupSettings(t *testing.T) {
	ctx := context.Background()
	file := []engine.OptionSetting{
		{Name: "plrun_cache_size", Value: "256m", Source: sysvar.SourceExplicit, Path: "/etc/my.cnf", Line: 2},
		{Name: "plrun_checkpoint_log_size", Value: "1G", Source: sysvar.SourceExplicit, Path: "/etc/my.cnf", Line: 3},
	}
	e, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: t.TempDir(), OptionSettings: file,
		Settings: map[string]string{"max_allowed_packet": "16M", "plrun_cache_size": "512M"}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	s := e.NewSession()
	for name, want := range map[string]string{
		"plrun_cache_size":          "536870912", // the command line over the file
		"plrun_checkpoint_log_size": "1073741824",
		"max_allowed_packet":        "16777216",
	} {
		if v := variable(t, s, name); v != want {
			t.Errorf("%s = %s, want %s", name, v, want)
		}
	}
	r, err := s.Exec(ctx, `SELECT VARIABLE_NAME, VARIABLE_SOURCE FROM performance_schema.variables_info
		WHERE VARIABLE_NAME IN ('plrun_cache_size', 'plrun_checkpoint_log_size') ORDER BY 1`, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, row := range r.Rows {
		got = append(got, row[0].String()+" "+row[1].String())
	}
	if g := strings.Join(got, ", "); g != "plrun_cache_size COMMAND_LINE, plrun_checkpoint_log_size EXPLICIT" {
		t.Errorf("origins: %s", g)
	}
	_, err = s.Exec(ctx, "SET GLOBAL plrun_cache_size = 1073741824", nil)
	wantCode(t, "SET GLOBAL plrun_cache_size", err, sqlerr.ErReadOnlyVariable)
	_, err = s.Exec(ctx, "SET GLOBAL max_allowed_packet = '32M'", nil)
	wantCode(t, "SET GLOBAL max_allowed_packet = '32M'", err, sqlerr.ErWrongTypeForVar)
	if v := variable(t, s, "plrun_cache_size"); v != "536870912" {
		t.Errorf("plrun_cache_size changed to %s", v)
	}
}

// A startup setting out of range, not a number, or an overflowing size
// is refused at open, naming the option file's line when it came from one.
func TestStartupSettingRefused(t *testing.T) {
	for _, c := range []struct {
		value string
		code  uint16
	}{{"1M", sqlerr.ErWrongValueForVar}, {"lots", sqlerr.ErWrongTypeForVar}, {"99999999999T", sqlerr.ErWrongValueForVar}, {"1.5G", sqlerr.ErWrongValueForVar}} {
		e, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: t.TempDir(), Settings: map[string]string{"plrun_cache_size": c.value}})
		if err == nil {
			e.Close()
		}
		wantCode(t, "plrun_cache_size="+c.value, err, c.code)
	}
	file := []engine.OptionSetting{{Name: "plrun_cache_size", Value: "4K", Source: sysvar.SourceGlobal, Path: "/d/plrun.cnf", Line: 7}}
	e, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: t.TempDir(), OptionSettings: file})
	if err == nil {
		e.Close()
	}
	if err == nil || !strings.HasPrefix(err.Error(), "/d/plrun.cnf:7: plrun_cache_size = 4K: ERROR 1231") {
		t.Errorf("option file: %v", err)
	}
}
