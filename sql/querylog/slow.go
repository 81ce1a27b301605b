package querylog

import (
	"fmt"
	"io"
	"net"
	"strings"
	"time"
)

// SlowEntry is one statement of the slow query log.
type SlowEntry struct {
	Start        time.Time // when the statement began (SET timestamp)
	End          time.Time // when it ended (# Time)
	User, Host   string    // the login and the client address (host:port or a name)
	ThreadID     uint64
	DB           string // the default database while it ran
	QueryTime    time.Duration
	LockTime     time.Duration // time spent waiting for row and table locks
	RowsSent     uint64
	RowsExamined uint64
	RowsAffected uint64
	Query        string // already redacted (Redact)
}

// Slow logs one statement. It never waits: when the log is off it does
// nothing, and a full queue drops the entry.
func (l *Logs) Slow(e *SlowEntry) {
	if !l.Enabled(Slow) {
		return
	}
	l.send(message{kind: Slow, slow: e})
}

// HostName is how the logs name a client host: "localhost" for a
// loopback address or an embedded session, else the address itself
// (plrun resolves no names, as mysqld with skip-name-resolve).
func HostName(host string) string {
	ip := clientIP(host)
	if ip == "" || net.ParseIP(ip).IsLoopback() {
		return "localhost"
	}
	return ip
}

// clientIP is host's address without its port ("" for a name).
func clientIP(host string) string {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	if net.ParseIP(host) == nil {
		return ""
	}
	return host
}

// writeSlow writes one entry as MariaDB 10.11 does. It differs in one
// line: `# Rows_affected:` has no `Bytes_sent:` (the engine, which
// writes the entry, does not see the protocol's bytes).
func (f *logFile) writeSlow(out io.Writer, e *SlowEntry) {
	if sec := e.End.Unix(); sec != f.lastSec {
		fmt.Fprintf(out, "# Time: %s\n", stamp(e.End))
		f.lastSec = sec
	}
	fmt.Fprintf(out, "# User@Host: %s[%s] @ %s [%s]\n", e.User, e.User, HostName(e.Host), clientIP(e.Host))
	fmt.Fprintf(out, "# Thread_id: %d  Schema: %s  QC_hit: No\n", e.ThreadID, e.DB)
	fmt.Fprintf(out, "# Query_time: %s  Lock_time: %s  Rows_sent: %d  Rows_examined: %d\n",
		seconds(e.QueryTime), seconds(e.LockTime), e.RowsSent, e.RowsExamined)
	fmt.Fprintf(out, "# Rows_affected: %d\n", e.RowsAffected)
	if e.DB != "" && e.DB != f.lastDB {
		fmt.Fprintf(out, "use `%s`;\n", strings.ReplaceAll(e.DB, "`", "``"))
		f.lastDB = e.DB
	}
	fmt.Fprintf(out, "SET timestamp=%d;\n%s;\n", e.Start.Unix(), e.Query)
}

// seconds is a duration as the slow log prints it: seconds, 6 decimals.
func seconds(d time.Duration) string { return fmt.Sprintf("%.6f", d.Seconds()) }
