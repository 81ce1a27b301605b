package server

import (
	"bufio"
	"bytes"
	"context"
	gosql "database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-mysql-org/go-mysql/mysql"
	mysqldrv "github.com/go-sql-driver/mysql"
)

// logBuffer is an error log kept in memory as slog's JSON lines.
type logBuffer struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func (l *logBuffer) logger() *slog.Logger { return slog.New(slog.NewJSONHandler(l, nil)) }

// events are the lines whose msg is msg, decoded.
func (l *logBuffer) events(t *testing.T, msg string) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(strings.NewReader(l.String()))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var ev map[string]any
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("not one JSON line per event: %q: %v", sc.Text(), err)
		}
		if ev["msg"] == msg {
			out = append(out, ev)
		}
	}
	return out
}

func (l *logBuffer) one(t *testing.T, msg string) map[string]any {
	t.Helper()
	evs := l.events(t, msg)
	if len(evs) != 1 {
		t.Fatalf("%d %q lines, want 1; the log:\n%s", len(evs), msg, l.String())
	}
	return evs[0]
}

// waitFor polls the log until cond holds (the line of a refused
// connection is written off the accept path).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("no %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// `plrun serve --log-error FILE --log-format json`: the start line with
// the settings that differ from their defaults and their source, failed
// logins (never the password), a connection refused for max_connections,
// FLUSH ERROR LOGS reopening the file after a rename, and the stop line.
func TestErrorLogServe(t *testing.T) {
	dir := t.TempDir()
	logPath := filepath.Join(dir, "error.log")
	ctx, cancel := context.WithCancel(context.Background())
	addrs := make(chan net.Addr, 1)
	done := make(chan error, 1)
	var stderr bytes.Buffer
	go func() {
		done <- run(ctx, []string{"serve", "--listen", "127.0.0.1:0", "--data", filepath.Join(dir, "data"), "--max-connections", "1",
			"--set", "enable_early_lock_release=ON", "--set", "log_slow_query_time=2", "--log-error", logPath, "--log-format", "json"},
			&stderr, func(a net.Addr) { addrs <- a })
	}()
	var addr net.Addr
	select {
	case addr = <-addrs:
	case err := <-done:
		t.Fatalf("serve ended: %v", err)
	}
	read := func(path string) *logBuffer {
		b, _ := os.ReadFile(path)
		l := &logBuffer{}
		l.buf.Write(b)
		return l
	}
	start := read(logPath).one(t, "plrun started")
	settings, _ := start["settings"].(map[string]any)
	elr, _ := settings["enable_early_lock_release"].(map[string]any)
	lqt, _ := settings["long_query_time"].(map[string]any)
	if start["version"] != ServerVersion || start["listen"] != addr.String() || start["data"] != filepath.Join(dir, "data") ||
		elr["value"] != "ON" || elr["source"] != "COMMAND_LINE" || lqt["value"] != "2.000000" || lqt["source"] != "COMMAND_LINE" {
		t.Errorf("start line %v", start)
	}
	if _, ok := settings["secure_file_priv"]; !ok {
		t.Errorf("start line lacks secure_file_priv, which serve sets: %v", settings)
	}

	dsn := func(user, password string) string { return fmt.Sprintf("%s:%s@tcp(%s)/test", user, password, addr) }
	// With --max-connections 1 a login may meet the previous connection
	// not yet gone (1040): try again until the slot is free.
	login := func(db *gosql.DB) error {
		for {
			err := db.Ping()
			var me *mysqldrv.MySQLError
			if !errors.As(err, &me) || me.Number != 1040 {
				return err
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	bad, _ := gosql.Open("mysql", dsn("root", "n0t-the-password"))
	mysqlError(t, login(bad), 1045, "28000")
	bad.Close()
	nobody, _ := gosql.Open("mysql", dsn("nobody", "pw"))
	mysqlError(t, login(nobody), 1045, "28000")
	nobody.Close()

	db, _ := gosql.Open("mysql", dsn("root", "root"))
	defer db.Close()
	if err := login(db); err != nil {
		t.Fatal(err)
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	refusedBefore := len(read(logPath).events(t, "connection refused: too many connections (1040)"))
	extra, _ := gosql.Open("mysql", dsn("root", "root"))
	mysqlError(t, extra.Ping(), 1040, "08004")
	extra.Close()
	waitFor(t, "refused-connection line", func() bool {
		return len(read(logPath).events(t, "connection refused: too many connections (1040)")) > refusedBefore
	})

	if err := os.Rename(logPath, logPath+".1"); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, "FLUSH ERROR LOGS"); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, "SET GLOBAL hotspot = ON"); err != nil {
		t.Fatal(err)
	}
	conn.Close()
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	old := read(logPath + ".1")
	fails := old.events(t, "login failed")
	if len(fails) != 2 || fails[0]["user"] != "root" || fails[0]["reason"] != "wrong password" ||
		fails[1]["user"] != "nobody" || fails[1]["reason"] != "no such account" || fails[0]["level"] != "WARN" ||
		!strings.HasPrefix(fails[0]["client"].(string), "127.0.0.1:") {
		t.Errorf("failed logins %v", fails)
	}
	if strings.Contains(old.String(), "n0t-the-password") {
		t.Errorf("the error log holds a password:\n%s", old.String())
	}
	for _, ev := range old.events(t, "connection refused: too many connections (1040)") {
		if ev["level"] != "WARN" || ev["max_connections"].(float64) != 1 || !strings.HasPrefix(ev["client"].(string), "127.0.0.1:") {
			t.Errorf("refused line %v", ev)
		}
	}
	cur := read(logPath)
	cur.one(t, "shutting down")
	stop := cur.one(t, "plrun stopped")
	stopSettings, _ := stop["settings"].(map[string]any)
	hot, _ := stopSettings["hotspot"].(map[string]any)
	if hot["value"] != "ON" || hot["source"] != "DYNAMIC" || stop["uptime"] == nil {
		t.Errorf("stop line %v", stop)
	}
	if len(old.events(t, "plrun stopped")) != 0 {
		t.Error("the stop line went to the renamed file: FLUSH ERROR LOGS did not reopen")
	}
	if stderr.Len() != 0 {
		t.Errorf("with --log-error, stderr got:\n%s", stderr.String())
	}
}

// The general log over the protocol: Connect, Query, Prepare, Execute
// (with the argument), Init DB and Quit, as MariaDB writes them.
func TestGeneralLogProtocol(t *testing.T) {
	ts := startServer(t, Config{}, map[string]string{"general_log": "ON", "general_log_file": "general.log"})
	db := ts.open(t)
	if _, err := db.Exec("SELECT 'plain'"); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.QueryRow("SELECT ?", 5).Scan(&n); err != nil {
		t.Fatal(err)
	}
	db.Close()
	// COM_FIELD_LIST is its own line, not the query that answers it.
	rc := dialRaw(t, ts.addr)
	rc.login("root", "root", "test")
	rc.query("CREATE TABLE fl (a INT)")
	rc.command(append([]byte{mysql.COM_INIT_DB}, "test"...))
	rc.pc.resetSequence()
	rc.write(append([]byte{mysql.COM_FIELD_LIST}, "fl\x00"...))
	for p := rc.read(); p[0] != mysql.EOF_HEADER && p[0] != mysql.ERR_HEADER; p = rc.read() {
	}
	waitFor(t, "Quit line", func() bool {
		ts.engine.QueryLogs().Sync()
		b, _ := os.ReadFile(filepath.Join(ts.engine.Dir(), "general.log"))
		return strings.Contains(string(b), "Quit\t")
	})
	b, _ := os.ReadFile(filepath.Join(ts.engine.Dir(), "general.log"))
	got := string(b)
	for _, want := range []string{
		" Connect\troot@localhost on test using TCP/IP\n",
		" Query\tSELECT 'plain'\n",
		" Prepare\tSELECT ?\n",
		" Execute\tSELECT 5\n",
		" Close stmt\t\n",
		" Quit\t\n",
		" Init DB\ttest\n",
		" Field List\tfl\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("general log lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "LIMIT 0") {
		t.Errorf("the query answering COM_FIELD_LIST is in the general log:\n%s", got)
	}
}

// COM_STATISTICS (mysqladmin status) counts the slow queries.
func TestStatisticsSlowQueries(t *testing.T) {
	ts := startServer(t, Config{}, map[string]string{"long_query_time": "0"})
	rc := dialRaw(t, ts.addr)
	rc.login("root", "root", "test", 0)
	rc.query("SELECT 1")
	rc.query("SELECT 2")
	stats := string(rc.command([]byte{mysql.COM_STATISTICS})[0])
	if !strings.Contains(stats, "  Slow queries: 2  ") {
		t.Fatalf("COM_STATISTICS: %q", stats)
	}
}
