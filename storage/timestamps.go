package storage

import (
	"encoding/json"
	"math"
	"time"
)

// Where a table keeps its TIMESTAMP values (TableDef.TimestampZone).
// MySQL stores a TIMESTAMP as an instant and shows it in the session's
// time_zone; plrun stores it as the wall time of that instant in the
// table's storage zone:
//
//	TimestampsUTC     "UTC": every table created by this version.
//	TimestampsSystem  "SYSTEM": a table whose definition was written before
//	                  plrun kept TIMESTAMPs as instants (its definition in
//	                  the log or a snapshot has no zone). Its values were
//	                  stored as the wall time of the session, which the
//	                  default time_zone (SYSTEM) made the process's local
//	                  time, so they are read as local wall times: under
//	                  SYSTEM they read exactly as before.
//	""                no zone: a transient table (derived table, CTE,
//	                  view rows) whose values are already the session's.
//
// The zone is part of the definition, so the log and snapshots replay it
// identically; the stored values are never rewritten.
const (
	TimestampsUTC    = "UTC"
	TimestampsSystem = "SYSTEM"
)

// TimestampStore is the zone d's TIMESTAMP values are stored in, or nil if
// its values need no conversion (a transient table).
func (d *TableDef) TimestampStore() *time.Location {
	switch d.TimestampZone {
	case TimestampsUTC:
		return time.UTC
	case TimestampsSystem:
		return time.Local
	}
	return nil
}

// UnmarshalJSON reads a definition from the log or a snapshot; one written
// before TimestampZone existed is a SYSTEM table (see TimestampsSystem).
func (d *TableDef) UnmarshalJSON(b []byte) error {
	type plain TableDef // without this method
	if err := json.Unmarshal(b, (*plain)(d)); err != nil {
		return err
	}
	if d.TimestampZone == "" {
		d.TimestampZone = TimestampsSystem
	}
	return nil
}

// NowText is how SHOW CREATE TABLE and information_schema print the
// column's CURRENT_TIMESTAMP: current_timestamp() or current_timestamp(n).
func (c *Column) NowText() string {
	if c.NowFsp > 0 {
		return "current_timestamp(" + string(rune('0'+c.NowFsp)) + ")"
	}
	return "current_timestamp()"
}

// Now is the clock read for the column's CURRENT_TIMESTAMP: t cut to its
// NowFsp fractional digits.
func (c *Column) Now(t time.Time) time.Time {
	return t.Truncate(time.Duration(math.Pow10(9 - c.NowFsp)))
}
