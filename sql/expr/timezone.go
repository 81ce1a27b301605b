package expr

import (
	"time"

	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
)

// zoneCache keeps the session's parsed time_zone: a TIMESTAMP column is
// converted with it on every row read and written.
type zoneCache struct {
	text string
	loc  *time.Location
}

// Location is the session's time_zone as a zone: NOW(), CURDATE(),
// FROM_UNIXTIME(), UNIX_TIMESTAMP(datetime), the CURRENT_TIMESTAMP
// defaults and every TIMESTAMP column read or written use it. The text
// was validated when set.
func (s *Env) Location() *time.Location {
	if s == nil || s.owner == nil {
		return time.Local
	}
	text := s.owner.SysVar(sysvar.Defs["time_zone"], false)
	if s.zone.loc != nil && s.zone.text == text {
		return s.zone.loc
	}
	loc, err := sysvar.ParseTimeZone(text)
	if err != nil {
		return time.Local
	}
	s.zone = zoneCache{text: text, loc: loc}
	return loc
}

// Now is the clock now in the session's time zone, as a wall time.
func (s *Env) Now() time.Time { return time.Now().In(s.Location()) }

// timestampColumn reads a TIMESTAMP column of a stored table: the value is
// kept as a wall time in the table's storage zone and read in the
// session's time_zone (storage/timestamps.go). nil for any other column.
func timestampColumn(def *storage.TableDef, idx, pos int) func(c *Ctx) (types.Value, error) {
	col := def.Columns[idx]
	store := def.TimestampStore()
	if col.Type.Base != types.TTimestamp || store == nil {
		return nil
	}
	p, _ := timePrecision(col.Type)
	return func(c *Ctx) (types.Value, error) {
		v := c.Row[pos]
		if v.K != types.KindTime {
			return v, nil
		}
		v.P = p
		return types.ShiftZone(v, store, c.Env.Location()), nil
	}
}

// StoredTimestamp is v, a wall time in the session's time_zone, as column
// c of def stores it; ok is false when v is outside TIMESTAMP's range.
// Any other column's value is returned as it is.
func (s *Env) StoredTimestamp(def *storage.TableDef, c int, v types.Value) (out types.Value, ok bool) {
	store := def.TimestampStore()
	if def.Columns[c].Type.Base != types.TTimestamp || store == nil || v.K != types.KindTime {
		return v, true
	}
	loc := s.Location()
	if !types.TimestampFits(v, loc) {
		return v, false
	}
	return types.ShiftZone(v, loc, store), true
}

// SessionTimestamp is the stored value v of column c of def as the
// session reads it (the inverse of StoredTimestamp).
func (s *Env) SessionTimestamp(def *storage.TableDef, c int, v types.Value) types.Value {
	store := def.TimestampStore()
	if def.Columns[c].Type.Base != types.TTimestamp || store == nil {
		return v
	}
	return types.ShiftZone(v, store, s.Location())
}
