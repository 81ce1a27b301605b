package engine_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/plrun/plrun/engine"
	"github.com/plrun/plrun/runtime/builtin"
	plsql "github.com/plrun/plrun/sql"
	"github.com/plrun/plrun/sqlerr"
)

func openLogged(t *testing.T, settings map[string]string) (*engine.Engine, *plsql.Session, string) {
	t.Helper()
	dir := t.TempDir()
	e, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: dir, Settings: settings})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e, e.NewSession(), dir
}

func run(t testing.TB, s *plsql.Session, stmts ...string) {
	t.Helper()
	for _, q := range stmts {
		if _, err := s.Exec(context.Background(), q, nil); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

func logText(t *testing.T, e *engine.Engine, path string) string {
	t.Helper()
	if err := e.QueryLogs().Sync(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The slow log, as long_query_time=0 makes every statement slow: MariaDB's
// entry for each, Rows_sent and Rows_examined counted, `use` when the
// database changes, the default file name in the data folder.
func TestSlowQueryLog(t *testing.T) {
	e, s, dir := openLogged(t, map[string]string{"slow_query_log": "ON", "long_query_time": "0"})
	host, _ := os.Hostname()
	host, _, _ = strings.Cut(host, ".")
	path := filepath.Join(dir, host+"-slow.log")
	run(t, s, "CREATE DATABASE d1", "USE d1", "CREATE TABLE t (a INT PRIMARY KEY, b INT)",
		"INSERT INTO t VALUES (1,1),(2,2),(3,3)", "SELECT * FROM t WHERE b = 2", "SELECT * FROM t WHERE a = 3",
		"SELECT x.a FROM t x JOIN t y ON y.a = x.b")
	got := logText(t, e, path)
	for _, want := range []string{
		"Time\t\t    Id Command\tArgument\n# Time: ",
		"# User@Host: root[root] @ localhost []\n# Thread_id: 1  Schema: test  QC_hit: No\n",
		"# Rows_affected: 3\nSET timestamp=",
		"Rows_sent: 1  Rows_examined: 3\n# Rows_affected: 0\nSET timestamp=",
		"\nSELECT * FROM t WHERE b = 2;\n",
		"Rows_sent: 1  Rows_examined: 1\n# Rows_affected: 0\nSET timestamp=",
		"Rows_sent: 3  Rows_examined: 6\n", // 3 scanned, 3 looked up by key
	} {
		if !strings.Contains(got, want) {
			t.Errorf("slow log lacks %q:\n%s", want, got)
		}
	}
	if n := strings.Count(got, "use `d1`;\n"); n != 1 {
		t.Errorf("`use d1` written %d times, want once (when it changes):\n%s", n, got)
	}
	if !regexp.MustCompile("(?m)^use `d1`;\nSET timestamp=\\d+;\nUSE d1;\n").MatchString(got) {
		t.Errorf("no use before the first statement in d1:\n%s", got)
	}
}

// Only what MariaDB logs: not a statement under long_query_time, not when
// the session turned the log off, a full scan under
// log_queries_not_using_indexes, nothing under min_examined_row_limit.
func TestSlowQueryLogChoice(t *testing.T) {
	e, s, dir := openLogged(t, map[string]string{"slow_query_log_file": "slow.log"})
	path := filepath.Join(dir, "slow.log")
	run(t, s, "CREATE TABLE t (a INT PRIMARY KEY, b INT)", "INSERT INTO t VALUES (1,1),(2,2)",
		"SET GLOBAL slow_query_log = ON", "SELECT 'fast' FROM t WHERE a = 1",
		"SET SESSION log_queries_not_using_indexes = ON", "SELECT 'scan' FROM t WHERE b = 1", "SELECT 'point' FROM t WHERE a = 2",
		"SET SESSION long_query_time = 0", "SET SESSION slow_query_log = OFF", "SELECT 'session off'",
		"SET SESSION slow_query_log = ON", "SET SESSION min_examined_row_limit = 2", "SELECT 'one row' FROM t WHERE a = 1",
		"SELECT 'two rows' FROM t", "SET SESSION min_examined_row_limit = 0",
		"ALTER TABLE t ADD COLUMN c1 INT", "SET SESSION log_slow_admin_statements = OFF", "ALTER TABLE t ADD COLUMN c2 INT",
		"SET GLOBAL log_output = 'NONE'", "SELECT 'output none' FROM t")
	got := logText(t, e, path)
	for q, want := range map[string]bool{"'fast'": false, "'scan'": true, "'point'": false, "'session off'": false,
		"'one row'": false, "'two rows'": true, "ADD COLUMN c1": true, "ADD COLUMN c2": false, "'output none'": false} {
		if strings.Contains(got, q) != want {
			t.Errorf("%s logged = %v, want %v:\n%s", q, !want, want, got)
		}
	}
}

// mysqldumpslow (mariadb-client) reads what plrun wrote: its summary
// groups the statements by shape with their counts and rows.
func TestSlowLogMysqldumpslow(t *testing.T) {
	bin, err := exec.LookPath("mysqldumpslow")
	if err != nil {
		t.Skip("mysqldumpslow is not installed (mariadb-client ships it)")
	}
	e, s, dir := openLogged(t, map[string]string{"slow_query_log": "ON", "long_query_time": "0", "slow_query_log_file": "s.log"})
	run(t, s, "CREATE TABLE t (a INT PRIMARY KEY, b INT)", "INSERT INTO t VALUES (1,1),(2,2),(3,3)")
	for _, q := range []string{"SELECT b FROM t WHERE b = 1", "SELECT b FROM t WHERE b = 2", "SELECT b FROM t WHERE b = 3"} {
		run(t, s, q)
	}
	logText(t, e, filepath.Join(dir, "s.log"))
	out, err := exec.Command(bin, "-s", "c", filepath.Join(dir, "s.log")).CombinedOutput()
	if err != nil {
		t.Fatalf("mysqldumpslow: %v\n%s", err, out)
	}
	summary := string(out)
	want := regexp.MustCompile(`Count: 3  Time=[0-9.]+s \([0-9.]+s\)  Lock=0\.00s \(0s\)  Rows_sent=1\.0 \(3\), Rows_examined=3\.0 \(9\), Rows_affected=0\.0 \(0\), root\[root\]@localhost\n  SELECT b FROM t WHERE b = N\n`)
	if !want.MatchString(summary) {
		t.Errorf("mysqldumpslow summary lacks the grouped SELECT:\n%s", summary)
	}
	if strings.Contains(summary, "Version") || strings.Contains(summary, "0users@0hosts") {
		t.Errorf("mysqldumpslow read the header as a statement:\n%s", summary)
	}
}

// The general log: every statement as it starts, passwords rewritten,
// and off by default.
func TestGeneralLog(t *testing.T) {
	e, s, dir := openLogged(t, nil)
	host, _ := os.Hostname()
	host, _, _ = strings.Cut(host, ".")
	path := filepath.Join(dir, host+".log")
	run(t, s, "SELECT 'before'")
	run(t, s, "SET GLOBAL general_log = ON", "SELECT 'during'")
	// Logged as it starts, whether or not it then runs.
	s.Exec(context.Background(), "SET PASSWORD FOR 'u1'@'%' = 'sekrit'", nil)
	if _, err := s.Exec(context.Background(), "SELECT ?, ?", []any{7, "x'y"}); err != nil {
		t.Fatal(err)
	}
	run(t, s, "SET GLOBAL general_log = OFF", "SELECT 'after'")
	got := logText(t, e, path)
	for text, want := range map[string]bool{
		"\t     1 Query\tSELECT 'during'\n":           true,
		"Query\tSET GLOBAL general_log = ON\n":        false, // logged as it starts, when the log was off
		"Query\tSET GLOBAL general_log = OFF\n":       true,
		"Query\tSET PASSWORD FOR `u1`@`%`=<secret>\n": true,
		"sekrit":                      false,
		"Execute\tSELECT 7, 'x''y'\n": true,
		"'before'":                    false,
		"'after'":                     false,
	} {
		if strings.Contains(got, text) != want {
			t.Errorf("general log has %q = %v, want %v:\n%s", text, !want, want, got)
		}
	}
}

// The log variables as MariaDB checks them; the aliases are one variable.
func TestQueryLogVariables(t *testing.T) {
	_, s, dir := openLogged(t, nil)
	ctx := context.Background()
	for q, code := range map[string]uint16{
		"SET GLOBAL slow_query_log_file = ''":                       sqlerr.ErWrongValueForVar,
		"SET GLOBAL slow_query_log_file = '" + dir + "'":            sqlerr.ErWrongValueForVar,
		"SET GLOBAL general_log_file = '" + dir + "/missing/x.log'": sqlerr.ErWrongValueForVar,
		"SET GLOBAL log_output = 'TABLE'":                           sqlerr.ErNotSupportedYet,
		"SET GLOBAL log_output = 'FILE,TABLE'":                      sqlerr.ErNotSupportedYet,
		"SET GLOBAL log_output = 'foo'":                             sqlerr.ErWrongValueForVar,
	} {
		_, err := s.Exec(ctx, q, nil)
		if e, ok := sqlerr.As(err); !ok || e.Code != code {
			t.Errorf("%s: %v, want %d", q, err, code)
		}
	}
	run(t, s, "SET GLOBAL log_slow_query_file = 'a.log'", "SET GLOBAL log_output = 'file,none'", "SET GLOBAL log_slow_query_time = 2.5")
	for name, want := range map[string]string{"slow_query_log_file": "a.log", "log_slow_file": "a.log", "log_output": "NONE,FILE",
		"long_query_time": "2.500000"} {
		if got := variable(t, s, name); got != want {
			t.Errorf("%s = %s, want %s", name, got, want)
		}
	}
}

// Lock_time is the time the statement waited for a row lock.
func TestSlowQueryLogLockTime(t *testing.T) {
	e, holder, dir := openLogged(t, map[string]string{"slow_query_log": "ON", "long_query_time": "0", "slow_query_log_file": "s.log"})
	waiter := e.NewSession()
	run(t, holder, "CREATE TABLE t (id INT PRIMARY KEY, k INT)", "INSERT INTO t VALUES (1, 0)", "BEGIN", "UPDATE t SET k = 1 WHERE id = 1")
	done := make(chan error, 1)
	go func() {
		_, err := waiter.Exec(context.Background(), "UPDATE t SET k = 2 WHERE id = 1 /* waited */", nil)
		done <- err
	}()
	for !strings.Contains(statusValue(t, e, "Innodb_row_lock_current_waits"), "1") {
		time.Sleep(time.Millisecond)
	}
	run(t, holder, "COMMIT")
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	got := logText(t, e, filepath.Join(dir, "s.log"))
	m := regexp.MustCompile(`# Query_time: ([0-9.]+)  Lock_time: ([0-9.]+)  Rows_sent: 0  Rows_examined: 1\n# Rows_affected: 1\nSET timestamp=\d+;\nUPDATE t SET k = 2 WHERE id = 1 /\* waited \*/;`).FindStringSubmatch(got)
	if m == nil {
		t.Fatalf("no entry for the waiting UPDATE:\n%s", got)
	}
	query, _ := strconv.ParseFloat(m[1], 64)
	lock, _ := strconv.ParseFloat(m[2], 64)
	if lock <= 0 || lock > query {
		t.Errorf("Lock_time %s (Query_time %s): the wait was not timed", m[2], m[1])
	}
	for _, other := range regexp.MustCompile(`Lock_time: ([0-9.]+)`).FindAllStringSubmatch(got, -1) {
		if other[1] != "0.000000" && other[1] != m[2] {
			t.Errorf("a statement that waited for nothing has Lock_time %s:\n%s", other[1], got)
		}
	}
}

func statusValue(t *testing.T, e *engine.Engine, name string) string {
	for _, row := range e.Status() {
		if row[0] == name {
			return row[1]
		}
	}
	t.Fatalf("no status %s", name)
	return ""
}

// The account statements' passwords reach neither log: each statement is
// written with <secret> in their place.
func TestQueryLogsHidePasswords(t *testing.T) {
	e, s, dir := openLogged(t, map[string]string{"general_log": "ON", "general_log_file": "g.log",
		"slow_query_log": "ON", "long_query_time": "0", "slow_query_log_file": "s.log"})
	ctx := context.Background()
	stmts := []string{
		"CREATE USER 'u1'@'%' IDENTIFIED BY 'Sekrit-1'",
		"ALTER USER 'u1'@'%' IDENTIFIED BY 'Sekrit-2'",
		"SET PASSWORD FOR 'u1'@'%' = 'Sekrit-3'",
		"GRANT SELECT ON test.* TO 'u1'@'%' IDENTIFIED BY 'Sekrit-4'",
	}
	for _, q := range stmts {
		s.Exec(ctx, q, nil) // logged whether it then succeeds or not
	}
	for _, path := range []string{"g.log", "s.log"} {
		got := logText(t, e, filepath.Join(dir, path))
		if strings.Contains(got, "Sekrit") {
			t.Errorf("%s holds a password:\n%s", path, got)
		}
		for _, want := range []string{"CREATE USER `u1`@`%` IDENTIFIED BY <secret>", "ALTER USER `u1`@`%` IDENTIFIED BY <secret>",
			"SET PASSWORD FOR `u1`@`%`=<secret>"} {
			if !strings.Contains(got, want) {
				t.Errorf("%s lacks %q:\n%s", path, want, got)
			}
		}
	}
}

// A multi-statement text is one Query line, as MariaDB writes it; with a
// password in one of its statements, the statements redacted.
func TestGeneralLogMultiStatement(t *testing.T) {
	e, s, dir := openLogged(t, map[string]string{"general_log": "ON", "general_log_file": "g.log"})
	ctx := context.Background()
	if _, err := s.ExecMulti(ctx, "SELECT 1; SELECT 2"); err != nil {
		t.Fatal(err)
	}
	s.ExecMulti(ctx, "SELECT 3; CREATE USER 'm1'@'%' IDENTIFIED BY 'Sekrit-9'; SELECT 4")
	got := logText(t, e, filepath.Join(dir, "g.log"))
	for text, want := range map[string]bool{
		"Query\tSELECT 1; SELECT 2\n": true,
		"Query\tSELECT 1\n":           false,
		"Query\tSELECT 3;CREATE USER `m1`@`%` IDENTIFIED BY <secret>;SELECT 4\n": true,
		"Sekrit": false,
	} {
		if strings.Contains(got, text) != want {
			t.Errorf("general log has %q = %v, want %v:\n%s", text, !want, want, got)
		}
	}
}

// FLUSH SLOW LOGS (and FLUSH LOGS) reopens the file under its name after
// a rotation tool renamed it; FLUSH GENERAL LOGS leaves the slow log alone.
func TestFlushLogsReopens(t *testing.T) {
	e, s, dir := openLogged(t, map[string]string{"slow_query_log": "ON", "long_query_time": "0", "slow_query_log_file": "s.log"})
	path := filepath.Join(dir, "s.log")
	run(t, s, "SELECT 'first'")
	logText(t, e, path)
	if err := os.Rename(path, path+".1"); err != nil {
		t.Fatal(err)
	}
	run(t, s, "FLUSH GENERAL LOGS", "SELECT 'still the old file'", "FLUSH SLOW LOGS", "SELECT 'second'")
	old, cur := logText(t, e, path+".1"), logText(t, e, path)
	if !strings.Contains(old, "'first'") || !strings.Contains(old, "'still the old file'") || strings.Contains(old, "'second'") {
		t.Errorf("rotated file:\n%s", old)
	}
	if !strings.Contains(cur, "Time\t\t    Id Command\tArgument\n") || !strings.Contains(cur, "SELECT 'second';") {
		t.Errorf("reopened file:\n%s", cur)
	}
	if err := os.Rename(path, path+".2"); err != nil {
		t.Fatal(err)
	}
	run(t, s, "FLUSH LOGS", "SELECT 'third'")
	if got := logText(t, e, path); !strings.Contains(got, "SELECT 'third';") {
		t.Errorf("FLUSH LOGS did not reopen:\n%s", got)
	}
}
