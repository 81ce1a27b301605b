package querylog

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/types"
)

func newLogs(t *testing.T) (*Logs, string) {
	t.Helper()
	l := New(Server{Program: "/usr/bin/plrun", Version: "8.0.36-plrun", Port: 3306})
	t.Cleanup(func() { l.Close() })
	return l, t.TempDir()
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

const header = "/usr/bin/plrun, Version: 8.0.36-plrun (plrun). started with:\nTcp port: 3306  Unix socket: \nTime\t\t    Id Command\tArgument\n"

func TestGeneralFormat(t *testing.T) {
	l, dir := newLogs(t)
	path := filepath.Join(dir, "host.log")
	if err := l.SetFile(General, path, true); err != nil {
		t.Fatal(err)
	}
	l.General(12, CmdConnect, ConnectArg("root", "127.0.0.1:5000", ""))
	l.General(12, CmdQuery, "select 1")
	l.General(12, CmdQuit, "")
	l.Sync()
	got := read(t, path)
	body, ok := strings.CutPrefix(got, header)
	if !ok {
		t.Fatalf("no header:\n%s", got)
	}
	lines := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("want 3 lines:\n%s", body)
	}
	// The first line of a second carries the stamp; the rest two tabs.
	if !strings.HasSuffix(lines[0], "\t    12 Connect\troot@localhost on  using TCP/IP") || len(lines[0]) < 15 || lines[0][6] != ' ' {
		t.Errorf("connect line %q", lines[0])
	}
	for i, want := range []string{"\t\t    12 Query\tselect 1", "\t\t    12 Quit\t"} {
		if lines[i+1] != want && !strings.HasSuffix(lines[i+1], want[1:]) {
			t.Errorf("line %d = %q, want %q", i+1, lines[i+1], want)
		}
	}
}

func TestSlowFormat(t *testing.T) {
	l, dir := newLogs(t)
	path := filepath.Join(dir, "host-slow.log")
	l.SetFile(Slow, path, true)
	start := time.Date(2026, 12, 1, 20, 52, 4, 0, time.Local)
	e := &SlowEntry{Start: start, End: start.Add(1500 * time.Millisecond), User: "root", Host: "10.1.2.3:4444", ThreadID: 13, DB: "d1",
		QueryTime: 1500 * time.Millisecond, LockTime: 250 * time.Microsecond, RowsSent: 1, RowsExamined: 3, RowsAffected: 0, Query: "select * from t where b=2"}
	l.Slow(e)
	e2 := *e
	e2.Query = "select 2"
	l.Slow(&e2)
	l.Sync()
	want := header + `# Time: 261201 20:52:05
# User@Host: root[root] @ 10.1.2.3 [10.1.2.3]
# Thread_id: 13  Schema: d1  QC_hit: No
# Query_time: 1.500000  Lock_time: 0.000250  Rows_sent: 1  Rows_examined: 3
# Rows_affected: 0
use ` + "`d1`" + `;
SET timestamp=` + itoa(start.Unix()) + `;
select * from t where b=2;
# User@Host: root[root] @ 10.1.2.3 [10.1.2.3]
# Thread_id: 13  Schema: d1  QC_hit: No
# Query_time: 1.500000  Lock_time: 0.000250  Rows_sent: 1  Rows_examined: 3
# Rows_affected: 0
SET timestamp=` + itoa(start.Unix()) + `;
select 2;
`
	if got := read(t, path); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// A full queue drops entries and counts them; the statement never waits.
func TestFullQueueDrops(t *testing.T) {
	l, dir := newLogs(t)
	path := filepath.Join(dir, "g.log")
	l.SetFile(General, path, true)
	release := make(chan struct{})
	blocked := make(chan struct{})
	go l.control(func(*writer) error { close(blocked); <-release; return nil })
	<-blocked
	for i := 0; i < QueueSize+10; i++ {
		l.General(1, CmdQuery, "select 1")
	}
	close(release)
	l.Sync()
	if d := l.Dropped(); d != 10 {
		t.Errorf("dropped %d, want 10", d)
	}
	if w := l.Written(); w != QueueSize {
		t.Errorf("written %d, want %d", w, QueueSize)
	}
}

// Reopen (FLUSH LOGS) closes the file; after a rename the next entry
// goes to a new file under the configured name, with its header.
func TestReopenAfterRotation(t *testing.T) {
	l, dir := newLogs(t)
	path := filepath.Join(dir, "g.log")
	l.SetFile(General, path, true)
	l.General(1, CmdQuery, "before")
	l.Sync()
	if err := os.Rename(path, path+".1"); err != nil {
		t.Fatal(err)
	}
	if err := l.Reopen(General, Slow); err != nil {
		t.Fatal(err)
	}
	l.General(1, CmdQuery, "after")
	l.Sync()
	old, cur := read(t, path+".1"), read(t, path)
	if !strings.Contains(old, "before") || strings.Contains(old, "after") {
		t.Errorf("rotated file:\n%s", old)
	}
	if !strings.HasPrefix(cur, header) || !strings.Contains(cur, "Query\tafter\n") {
		t.Errorf("new file:\n%s", cur)
	}
}

func TestOffLogsNothing(t *testing.T) {
	l, dir := newLogs(t)
	path := filepath.Join(dir, "g.log")
	l.SetFile(General, path, false)
	l.General(1, CmdQuery, "select 1")
	l.Sync()
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("log off, yet the file exists (%v)", err)
	}
}

func TestCheckPath(t *testing.T) {
	dir := t.TempDir()
	for path, ok := range map[string]bool{
		filepath.Join(dir, "x.log"):            true,
		dir:                                    false,
		filepath.Join(dir, "missing", "x.log"): false,
	} {
		if err := CheckPath(path); (err == nil) != ok {
			t.Errorf("CheckPath(%s) = %v", path, err)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("CheckPath left files: %v", entries)
	}
}

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"CREATE USER 'u1'@'%' IDENTIFIED BY 'sekrit'":                       "CREATE USER `u1`@`%` IDENTIFIED BY <secret>",
		"create user u2 identified by 'p1', u3 identified by 'p2'":          "CREATE USER `u2`@`%` IDENTIFIED BY <secret>, `u3`@`%` IDENTIFIED BY <secret>",
		"ALTER USER 'u1'@'%' IDENTIFIED BY 'sekrit2'":                       "ALTER USER `u1`@`%` IDENTIFIED BY <secret>",
		"SET PASSWORD FOR 'u1'@'%' = PASSWORD('sekrit3')":                   "SET PASSWORD FOR `u1`@`%`=<secret>",
		"set password = 'sekrit4'":                                          "SET PASSWORD=<secret>",
		"CREATE USER u4 IDENTIFIED WITH mysql_native_password AS '*ABCDEF'": "CREATE USER `u4`@`%` IDENTIFIED WITH 'mysql_native_password' AS <secret>",
		"GRANT SELECT ON d.* TO 'u6'@'%' IDENTIFIED BY 'sekrit6'":           "GRANT SELECT ON `d`.* TO `u6`@`%` IDENTIFIED BY <secret>",
		"select 'sekrit' from t":                                            "select 'sekrit' from t",
		"CREATE USER u5":                                                    "CREATE USER u5",
	} {
		p, err := parse.Parse(in, mysql.ModeNone)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		got := Redact(p, mysql.ModeNone)
		if got != want {
			t.Errorf("Redact(%s)\n got %s\nwant %s", in, got, want)
		}
		if strings.Contains(got, "sekrit") && strings.Contains(want, secret) {
			t.Errorf("%s: the password is still there", in)
		}
	}
}

func TestExpand(t *testing.T) {
	args := []types.Value{types.IntValue(5), types.StringValue("it's"), types.Null}
	got := Expand("select ?, '?', `a?` /* ? */ from t where a = ? and b <=> ?", args)
	want := "select 5, '?', `a?` /* ? */ from t where a = 'it''s' and b <=> NULL"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// RedactText: text alone (PROCESSLIST, SHOW ENGINE, the REPL's history).
// Text that does not parse but names a password keyword shows only its
// first words; text that names none is never parsed.
func TestRedactText(t *testing.T) {
	for in, want := range map[string]string{
		"CREATE USER u IDENTIFIED BY 'sekrit'":                   "CREATE USER `u`@`%` IDENTIFIED BY <secret>",
		"create user u identified by \"p'sekrit\"":               "CREATE USER `u`@`%` IDENTIFIED BY <secret>",
		"ALTER USER u IDENTIFIED BY 'it''s sekrit'":              "ALTER USER `u`@`%` IDENTIFIED BY <secret>",
		"SET PASSWORD = 'sekrit'":                                "SET PASSWORD=<secret>",
		"CREATE USER u IDENTIFIED BY 'sekrit":                    "CREATE USER <secret>", // unterminated: no parse
		"CREATE USER u IDENTIFIED BY 'sekrit'; SELECT 1":         "CREATE USER <secret>", // two statements
		"SELECT 'IDENTIFIED', 'PASSWORD sekrit' FROM t":          "SELECT 'IDENTIFIED', 'PASSWORD sekrit' FROM t",
		"SELECT 1 /* not parsed: no keyword */ FROM nowhere !!!": "SELECT 1 /* not parsed: no keyword */ FROM nowhere !!!",
	} {
		got := RedactText(in, mysql.ModeNone)
		if got != want {
			t.Errorf("RedactText(%s)\n got %s\nwant %s", in, got, want)
		}
	}
}
