package server

import (
	"bytes"
	"context"
	gosql "database/sql"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// served is a plrun serve started through run with some arguments.
type served struct {
	addr   net.Addr
	stderr *logBuffer // shared by the serving goroutine and the test
	cancel context.CancelFunc
	done   chan error
}

// serveArgs runs plrun serve with args; the error is run's when it
// ends before it serves (a bad option file).
func serveArgs(t *testing.T, args ...string) (*served, error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	s := &served{stderr: &logBuffer{}, cancel: cancel, done: make(chan error, 1)}
	addrs := make(chan net.Addr, 1)
	go func() {
		s.done <- run(ctx, append([]string{"serve"}, args...), s.stderr, func(a net.Addr) { addrs <- a })
	}()
	select {
	case s.addr = <-addrs:
		return s, nil
	case err := <-s.done:
		cancel()
		return nil, err
	case <-time.After(30 * time.Second):
		cancel()
		t.Fatal("serve did not start")
	}
	return nil, nil
}

func (s *served) stop(t *testing.T) {
	t.Helper()
	s.cancel()
	if err := <-s.done; err != nil {
		t.Fatal(err)
	}
}

func (s *served) db(t *testing.T, user, password string) *gosql.DB {
	t.Helper()
	db, err := gosql.Open("mysql", fmt.Sprintf("%s:%s@tcp(%s)/", user, password, s.addr))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func writeFile(t *testing.T, path, text string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// varInfo is a variable's value and its variables_info row, as
// "value source path user host".
func varInfo(t *testing.T, db *gosql.DB, name string) string {
	t.Helper()
	var value, source, path, user, host string
	err := db.QueryRow(`SELECT g.VARIABLE_VALUE, i.VARIABLE_SOURCE, i.VARIABLE_PATH, i.SET_USER, i.SET_HOST
		FROM performance_schema.variables_info i JOIN information_schema.GLOBAL_VARIABLES g ON g.VARIABLE_NAME = i.VARIABLE_NAME
		WHERE i.VARIABLE_NAME = ?`, name).Scan(&value, &source, &path, &user, &host)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return strings.TrimSpace(strings.Join([]string{value, source, filepath.Base(path), user, host}, " "))
}

func TestOptionFileInDataFolder(t *testing.T) {
	data := t.TempDir()
	writeFile(t, filepath.Join(data, "plrun.cnf"), `# the data folder's own options
[client]
user = nobody   # another program's group: not read
[plrun]
listen = 127.0.0.1:0
user = alice
password = "s3cret # not a comment"
enable-early-lock-release = ON
innodb_lock_wait_timeout = 7
hotspot
loose-no_such_option = 1
[plrun-serve]
max_connections_unused_by_plrun_but_loose_ok_is_not_here = 1
`)
	if _, err := serveArgs(t, "--data", data); err == nil || !strings.Contains(err.Error(), "plrun.cnf:13: unknown variable 'max_connections_unused_by_plrun_but_loose_ok_is_not_here=1'") {
		t.Fatalf("unknown option: got %v", err)
	}
	writeFile(t, filepath.Join(data, "plrun.cnf"), `[plrun]
listen = 127.0.0.1:0
user = alice
password = "s3cret # not a comment"
enable-early-lock-release = ON
innodb_lock_wait_timeout = 7
hotspot
loose-no_such_option = 1
[plrun-serve]
max-connections = 5
`)
	s, err := serveArgs(t, "--data", data)
	if err != nil {
		t.Fatal(err)
	}
	defer s.stop(t)
	if w := s.stderr.String(); !strings.Contains(w, "plrun.cnf:8: unknown option 'loose-no_such_option=1' ignored") {
		t.Errorf("no warning for the loose option: %s", w)
	}
	db := s.db(t, "alice", "s3cret # not a comment")
	for name, want := range map[string]string{
		"enable_early_lock_release": "ON GLOBAL plrun.cnf",
		"innodb_lock_wait_timeout":  "7 GLOBAL plrun.cnf",
		"hotspot":                   "ON GLOBAL plrun.cnf",
		"lock_wait_timeout":         "86400 COMPILED .",
		"secure_file_priv":          "NULL COMPILED .",
	} {
		if got := varInfo(t, db, name); got != want {
			t.Errorf("%s: got %q, want %q", name, got, want)
		}
	}
	// max-connections = 5 came from [plrun-serve]: the sixth is refused
	var conns []*gosql.Conn
	for i := 0; i < 5; i++ {
		c, err := db.Conn(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		if err := c.PingContext(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	extra := s.db(t, "alice", "s3cret # not a comment")
	mysqlError(t, extra.Ping(), 1040, "08004")
	for _, c := range conns {
		c.Close()
	}
}

// TestOptionPrecedence: compiled default < option file < plrun-auto.cnf
// < command line, and SET GLOBAL is DYNAMIC with its time and setter.
func TestOptionPrecedence(t *testing.T) {
	data := t.TempDir()
	writeFile(t, filepath.Join(data, "plrun.cnf"), `[plrun]
listen = 127.0.0.1:0
innodb_lock_wait_timeout = 7
lock_wait_timeout = 100
long_query_time = 3
workers = 3
`)
	s, err := serveArgs(t, "--data", data)
	if err != nil {
		t.Fatal(err)
	}
	db := s.db(t, "root", "root")
	mustExec(t, db, "SET PERSIST innodb_lock_wait_timeout = 8")
	mustExec(t, db, "SET @@PERSIST_ONLY.plrun_workers = 5")
	if got := varInfo(t, db, "plrun_workers"); got != "3 GLOBAL plrun.cnf" {
		t.Errorf("plrun_workers before restart: %q", got)
	}
	if got := varInfo(t, db, "innodb_lock_wait_timeout"); got != "8 DYNAMIC . root 127.0.0.1" {
		t.Errorf("after SET PERSIST: %q", got)
	}
	s.stop(t)

	s, err = serveArgs(t, "--data", data, "--set", "long_query_time=4")
	if err != nil {
		t.Fatal(err)
	}
	db = s.db(t, "root", "root")
	for name, want := range map[string]string{
		"innodb_lock_wait_timeout": "8 PERSISTED plrun-auto.cnf", // persisted over the file
		"plrun_workers":            "5 PERSISTED plrun-auto.cnf",
		"lock_wait_timeout":        "100 GLOBAL plrun.cnf",
		"long_query_time":          "4.000000 COMMAND_LINE .", // the command line over the file
	} {
		if got := varInfo(t, db, name); got != want {
			t.Errorf("%s: got %q, want %q", name, got, want)
		}
	}
	var path string
	if err := db.QueryRow("SELECT VARIABLE_PATH FROM performance_schema.variables_info WHERE VARIABLE_NAME = 'plrun_workers'").Scan(&path); err != nil || path != filepath.Join(data, "plrun-auto.cnf") {
		t.Errorf("persisted path %q (%v), want %s", path, err, filepath.Join(data, "plrun-auto.cnf"))
	}
	before := time.Now().Add(-time.Second)
	mustExec(t, db, "SET GLOBAL lock_wait_timeout = 55")
	if got := varInfo(t, db, "lock_wait_timeout"); got != "55 DYNAMIC . root 127.0.0.1" {
		t.Errorf("after SET GLOBAL: %q", got)
	}
	var recent int
	if err := db.QueryRow("SELECT SET_TIME >= ? FROM performance_schema.variables_info WHERE VARIABLE_NAME = 'lock_wait_timeout'",
		before.Format("2006-01-02 15:04:05")).Scan(&recent); err != nil || recent != 1 {
		t.Errorf("SET_TIME not the time of the SET (%d, %v)", recent, err)
	}
	s.stop(t)

	// --workers on the command line beats the persisted value
	s, err = serveArgs(t, "--data", data, "--workers", "6")
	if err != nil {
		t.Fatal(err)
	}
	if got := varInfo(t, s.db(t, "root", "root"), "plrun_workers"); got != "6 COMMAND_LINE ." {
		t.Errorf("plrun_workers with --workers: %q", got)
	}
	s.stop(t)
}

// TestDefaultsFile: --defaults-file reads only that file (and what it
// includes), names the data folder, and its options are EXPLICIT.
func TestDefaultsFile(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	writeFile(t, filepath.Join(data, "plrun.cnf"), "[plrun]\nhotspot = ON\n") // not read under --defaults-file
	writeFile(t, filepath.Join(dir, "conf.d", "10-locks.cnf"), "[plrun]\ninnodb_lock_wait_timeout = 9\n")
	writeFile(t, filepath.Join(dir, "conf.d", "20-locks.cnf"), "[plrun]\ninnodb_lock_wait_timeout = 11\n")
	writeFile(t, filepath.Join(dir, "conf.d", "README"), "[plrun]\nnot an option file\n")
	writeFile(t, filepath.Join(dir, "auth.cnf"), "[plrun-serve]\nuser = 'bob'\npassword = pw\\sword\n")
	f := writeFile(t, filepath.Join(dir, "my.cnf"), fmt.Sprintf("[plrun]\ndata = %s\nlisten = 127.0.0.1:0\n!include auth.cnf\n!includedir conf.d\n", data))

	s, err := serveArgs(t, "--defaults-file="+f)
	if err != nil {
		t.Fatal(err)
	}
	db := s.db(t, "bob", "pw word") // \s is a space
	for name, want := range map[string]string{
		"innodb_lock_wait_timeout": "11 EXPLICIT 20-locks.cnf",
		"hotspot":                  "OFF COMPILED .",
	} {
		if got := varInfo(t, db, name); got != want {
			t.Errorf("%s: got %q, want %q", name, got, want)
		}
	}
	s.stop(t)

	// --defaults-extra-file is read after the data folder's plrun.cnf
	extra := writeFile(t, filepath.Join(dir, "extra.cnf"), "[plrun]\nlisten = 127.0.0.1:0\nhotspot_for_autocommit = ON\ninnodb_lock_wait_timeout = 12\n")
	writeFile(t, filepath.Join(data, "plrun.cnf"), "[plrun]\nhotspot = ON\ninnodb_lock_wait_timeout = 2\n")
	s, err = serveArgs(t, "--defaults-extra-file", extra, "--data", data)
	if err != nil {
		t.Fatal(err)
	}
	db = s.db(t, "bob", "pw word") // the account the first start seeded
	for name, want := range map[string]string{
		"innodb_lock_wait_timeout": "12 EXTRA extra.cnf",
		"hotspot":                  "ON GLOBAL plrun.cnf",
		"hotspot_for_autocommit":   "ON EXTRA extra.cnf",
	} {
		if got := varInfo(t, db, name); got != want {
			t.Errorf("%s: got %q, want %q", name, got, want)
		}
	}
	s.stop(t)

	// --no-defaults reads nothing
	s, err = serveArgs(t, "--no-defaults", "--data", data, "--listen", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if got := varInfo(t, s.db(t, "bob", "pw word"), "hotspot"); got != "OFF COMPILED ." {
		t.Errorf("hotspot under --no-defaults: %q", got)
	}
	s.stop(t)
}

// TestOptionFileErrors: a bad line stops the start, naming file:line.
func TestOptionFileErrors(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	for name, tc := range map[string]struct {
		file string
		args []string
		want string
	}{
		"unknown":        {"[plrun]\nlisten=127.0.0.1:0\nbogus = 1\n", nil, "plrun.cnf:3: unknown variable 'bogus=1'"},
		"bad value":      {"[plrun]\ninnodb_lock_wait_timeout = abc\n", nil, "plrun.cnf:2: innodb_lock_wait_timeout = abc: ERROR 1232 (42000): Incorrect argument type to variable 'innodb_lock_wait_timeout'"},
		"out of range":   {"[plrun]\ninnodb_flush_log_at_trx_commit = 7\n", nil, "plrun.cnf:2: innodb_flush_log_at_trx_commit = 7"},
		"no group":       {"listen = x\n", nil, "plrun.cnf:1: found option without preceding group"},
		"needs value":    {"[plrun]\nlisten\n", nil, "plrun.cnf:2: option '--listen' requires an argument"},
		"setting value":  {"[plrun]\nlong_query_time\n", nil, "plrun.cnf:2: option 'long_query_time' requires an argument"},
		"bad flag value": {"[plrun]\nmax-connections = many\n", nil, "plrun.cnf:2: --max-connections: parse error"},
		"data inside":    {"[plrun]\ndata = /elsewhere\n", nil, "plrun.cnf:2: data cannot be set in the data folder's own plrun.cnf"},
		"command only":   {"[plrun]\nno-defaults\n", nil, "plrun.cnf:2: --no-defaults is taken on the command line only"},
		"not first":      {"[plrun]\n", []string{"--data", data, "--defaults-file=" + filepath.Join(dir, "x.cnf")}, "--defaults-file must be the first argument of plrun serve"},
		"missing":        {"[plrun]\n", []string{"--defaults-file=" + filepath.Join(dir, "x.cnf"), "--data", data}, "could not open required defaults file: " + filepath.Join(dir, "x.cnf")},
		"bad include":    {"[plrun]\n!include nothere.cnf\n", nil, "plrun.cnf:2: !include"},
	} {
		writeFile(t, filepath.Join(data, "plrun.cnf"), tc.file)
		args := tc.args
		if args == nil {
			args = []string{"--data", data, "--listen", "127.0.0.1:0"}
		}
		s, err := serveArgs(t, args...)
		if s != nil {
			s.stop(t)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", name, err, tc.want)
		}
	}
}

func TestPrintDefaults(t *testing.T) {
	dir := t.TempDir()
	f := writeFile(t, filepath.Join(dir, "my.cnf"), "[plrun]\ndata = /var/lib/plrun\nhotspot\n[client]\nuser=x\n[plrun-serve]\nlisten = 0.0.0.0:3306 # all\n")
	var out bytes.Buffer
	printOut = &out
	defer func() { printOut = os.Stdout }()
	if err := run(context.Background(), []string{"serve", "--defaults-file=" + f, "--print-defaults", "--workers", "4"}, &out, nil); err != nil {
		t.Fatal(err)
	}
	want := "plrun serve would have been started with the following arguments:\n--data=/var/lib/plrun\n--hotspot\n--listen=0.0.0.0:3306\n--workers\n4\n"
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
}

// TestOptionFileOtherFlags: flags other parts registered (TLS) are
// option-file names too, and a setting checked against them (require_
// secure_transport needs TLS) is checked from a file as from --set.
func TestOptionFileOtherFlags(t *testing.T) {
	data := t.TempDir()
	writeFile(t, filepath.Join(data, "plrun.cnf"), "[plrun-serve]\nlisten = 127.0.0.1:0\ntls = off\n[plrun]\nrequire_secure_transport = ON\n")
	if _, err := serveArgs(t, "--data", data); err == nil || !strings.Contains(err.Error(), "plrun.cnf:5: require_secure_transport = ON: ERROR 4167") {
		t.Fatalf("require_secure_transport without TLS: %v", err)
	}
	writeFile(t, filepath.Join(data, "plrun.cnf"), "[plrun-serve]\nlisten = 127.0.0.1:0\ntls = off\n")
	s, err := serveArgs(t, "--data", data)
	if err != nil {
		t.Fatal(err)
	}
	defer s.stop(t)
	if got := varInfo(t, s.db(t, "root", "root"), "have_ssl"); got != "DISABLED COMMAND_LINE ." {
		t.Errorf("have_ssl with tls = off in plrun.cnf: %q", got)
	}
}
