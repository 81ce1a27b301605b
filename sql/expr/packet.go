package expr

import (
	"strconv"

	"github.com/plrun/plrun/sqlerr"
)

// overPacket reports whether a function's result of n bytes would pass
// max_allowed_packet; if so it notes MySQL's warning 1301 (the result is
// then NULL, as MySQL returns it).
func (c *Ctx) overPacket(fn string, n int64) bool {
	limit := c.Env.MaxAllowedPacket()
	if n <= limit {
		return false
	}
	c.warn(sqlerr.Note{Level: "Warning", Code: sqlerr.ErWarnAllowedPacketOverflowed,
		Message: "Result of " + fn + "() was larger than max_allowed_packet (" + strconv.FormatInt(limit, 10) + ") - truncated"})
	return true
}

// warn keeps a warning of the running statement for its result (and so
// SHOW WARNINGS), up to maxNotes.
func (c *Ctx) warn(n sqlerr.Note) {
	if c.Notes == nil {
		c.Notes = new([]sqlerr.Note)
	}
	if len(*c.Notes) < MaxNotes {
		*c.Notes = append(*c.Notes, n)
	}
}

// MaxNotes is max_error_count's default: how many warnings one statement
// keeps (its warning count goes on past it).
const MaxNotes = 64
