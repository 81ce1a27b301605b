package engine_test

import (
	"context"
	"strings"
	"testing"

	"github.com/plrun/plrun/engine"
	"github.com/plrun/plrun/runtime/builtin"
	"github.com/plrun/plrun/sql/sysvar"
)

// TestOptionSettingsOrder: option-file settings < plrun-auto.cnf <
// Config.Settings, each with its origin; a bad one names its file:line.
func TestOptionSettingsOrder(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	file := []engine.OptionSetting{
		{Name: "innodb_lock_wait_timeout", Value: "7", Source: sysvar.SourceExplicit, Path: "/etc/my.cnf", Line: 3},
		{Name: "lock_wait_timeout", Value: "8", Source: sysvar.SourceExplicit, Path: "/etc/my.cnf", Line: 4},
		{Name: "long_query_time", Value: "1.5", Source: sysvar.SourceExplicit, Path: "/etc/my.cnf", Line: 5},
	}
	e, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: dir, OptionSettings: file})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.NewSession().Exec(ctx, "SET PERSIST lock_wait_timeout = 9", nil); err != nil {
		t.Fatal(err)
	}
	e.Close()

	e, err = engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: dir, OptionSettings: file, Settings: map[string]string{"long_query_time": "2"}})
	if err != nil {
		t.Fatal(err)
	}
	s := e.NewSession()
	r, err := s.Exec(ctx, `SELECT VARIABLE_NAME, VARIABLE_SOURCE, VARIABLE_PATH FROM performance_schema.variables_info
		WHERE VARIABLE_NAME IN ('innodb_lock_wait_timeout', 'lock_wait_timeout', 'long_query_time') ORDER BY 1`, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, row := range r.Rows {
		got = append(got, row[0].String()+" "+row[1].String()+" "+row[2].String())
	}
	want := []string{"innodb_lock_wait_timeout EXPLICIT /etc/my.cnf", "lock_wait_timeout PERSISTED " + dir + "/plrun-auto.cnf", "long_query_time COMMAND_LINE "}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for name, want := range map[string]string{"innodb_lock_wait_timeout": "7", "lock_wait_timeout": "9", "long_query_time": "2.000000"} {
		if v := variable(t, s, name); v != want {
			t.Errorf("%s = %s, want %s", name, v, want)
		}
	}
	e.Close()

	bad := append(file, engine.OptionSetting{Name: "hotspot", Value: "maybe", Source: sysvar.SourceGlobal, Path: "/d/plrun.cnf", Line: 12})
	if _, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: dir, OptionSettings: bad}); err == nil ||
		!strings.HasPrefix(err.Error(), "/d/plrun.cnf:12: hotspot = maybe: ERROR 1231") {
		t.Errorf("bad option setting: %v", err)
	}
}
