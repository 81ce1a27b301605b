package querylog

import (
	"fmt"
	"io"
	"time"
)

// The commands of the general log, as mysqld names them.
const (
	CmdConnect   = "Connect"
	CmdQuit      = "Quit"
	CmdQuery     = "Query"
	CmdInitDB    = "Init DB"
	CmdPrepare   = "Prepare"
	CmdExecute   = "Execute"
	CmdClose     = "Close stmt"
	CmdFieldList = "Field List"
	CmdChange    = "Change user"
	CmdReset     = "Reset connection"
)

type generalEntry struct {
	at      time.Time
	id      uint64
	command string
	arg     string
}

// General logs one command of connection id. It never waits: when the
// log is off it does nothing, and a full queue drops the entry.
func (l *Logs) General(id uint64, command, arg string) {
	if !l.Enabled(General) {
		return
	}
	l.send(message{kind: General, general: &generalEntry{at: time.Now(), id: id, command: command, arg: arg}})
}

// ConnectArg is the argument of a Connect line: `user@host on db using
// TCP/IP`, as MariaDB writes it (two spaces when there is no database).
func ConnectArg(user, host, db string) string {
	return fmt.Sprintf("%s@%s on %s using TCP/IP", user, HostName(host), db)
}

// writeGeneral writes one line in MariaDB's format: the time stamp only
// on the first line of each second, then the id right-aligned in six.
func (f *logFile) writeGeneral(out io.Writer, e *generalEntry) {
	sec := e.at.Unix()
	lead := "\t"
	if sec != f.lastSec {
		lead = stamp(e.at)
		f.lastSec = sec
	}
	fmt.Fprintf(out, "%s\t%6d %s\t%s\n", lead, e.id, e.command, e.arg)
}
