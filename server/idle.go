package server

import (
	"strconv"
	"time"

	"github.com/go-mysql-org/go-mysql/mysql"

	"github.com/plrun/plrun/sql/sysvar"
)

// startIdleClock applies the login's interactivity: an interactive
// client's wait_timeout starts as interactive_timeout (MariaDB's rule).
func (c *conn) startIdleClock() {
	if c.wire.capability&mysql.CLIENT_INTERACTIVE != 0 {
		c.session.BeginInteractive()
	}
}

// armIdleTimeout bounds the wait for the next command by the session's
// wait_timeout: a client idle past it is disconnected, as MariaDB does
// (counted in Aborted_clients). A draining server's shorter linger wins
// (lingerIfDraining runs after this).
func (c *conn) armIdleTimeout() {
	secs, err := strconv.ParseInt(c.session.SysVar(sysvar.Defs["wait_timeout"], false), 10, 64)
	if err != nil || secs <= 0 {
		return
	}
	_ = c.sock.SetReadDeadline(time.Now().Add(time.Duration(secs) * time.Second))
}

// armWriteTimeout makes the command's reply writes wait at most the
// session's net_write_timeout each for the client to read.
func (c *conn) armWriteTimeout() {
	secs, err := strconv.ParseInt(c.session.SysVar(sysvar.Defs["net_write_timeout"], false), 10, 64)
	if err != nil || secs <= 0 {
		return
	}
	c.sock.writeTimeout.Store(int64(time.Duration(secs) * time.Second))
}
