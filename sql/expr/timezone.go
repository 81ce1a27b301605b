package expr

import (
	"time"

	"github.com/plrun/plrun/sql/sysvar"
)

// Location is the session's time_zone as a zone: NOW(), CURDATE(),
// FROM_UNIXTIME(), UNIX_TIMESTAMP(datetime) and the CURRENT_TIMESTAMP
// defaults read the clock in it. The text was validated when set.
func (s *Env) Location() *time.Location {
	if s == nil || s.owner == nil {
		return time.Local
	}
	loc, err := sysvar.ParseTimeZone(s.owner.SysVar(sysvar.Defs["time_zone"], false))
	if err != nil {
		return time.Local
	}
	return loc
}

// Now is the clock now in the session's time zone, as a wall time.
func (s *Env) Now() time.Time { return time.Now().In(s.Location()) }
