package sql

import (
	"strconv"

	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sqlerr"
)

// maxAllowedPacket is the session's max_allowed_packet: the longest
// statement it accepts and the longest string a function may return.
func (s *Session) maxAllowedPacket() int64 {
	n, _ := strconv.ParseInt(s.getVar(sysvar.Defs["max_allowed_packet"], false), 10, 64)
	return n
}

// checkStatementSize refuses a statement longer than max_allowed_packet
// with MySQL's 1153, whichever way it arrived (a client's packet, a
// procedure's runSql, the Go API).
func (s *Session) checkStatementSize(query string) error {
	if limit := s.maxAllowedPacket(); limit > 0 && int64(len(query)) > limit {
		return sqlerr.New(sqlerr.ErNetPacketTooLarge, "Got a packet bigger than 'max_allowed_packet' bytes")
	}
	return nil
}

// overPacket reports whether a function's result of n bytes would pass
// max_allowed_packet; if so it notes MySQL's warning 1301 (the result is
// then NULL, as MySQL returns it).
func (c *evalCtx) overPacket(fn string, n int64) bool {
	limit := c.s.maxAllowedPacket()
	if n <= limit {
		return false
	}
	c.warn(Note{Level: "Warning", Code: sqlerr.ErWarnAllowedPacketOverflowed,
		Message: "Result of " + fn + "() was larger than max_allowed_packet (" + strconv.FormatInt(limit, 10) + ") - truncated"})
	return true
}

// warn keeps a warning of the running statement for its result (and so
// SHOW WARNINGS), up to maxNotes.
func (c *evalCtx) warn(n Note) {
	if c.notes == nil {
		c.notes = new([]Note)
	}
	if len(*c.notes) < maxNotes {
		*c.notes = append(*c.notes, n)
	}
}
