package storage

import (
	"strconv"
	"strings"
	"time"

	"github.com/plrun/plrun/types"
)

// A column that ALTER TABLE turns into or out of a TIMESTAMP changes what
// its values mean: a DATETIME is a wall time in the session's time_zone,
// a TIMESTAMP an instant kept in its table's zone (timestamps.go).
// Reshape.Zone is that session's time_zone ("SYSTEM" or "+hh:mm"), so
// replay converts as the statement did; a record without one (written
// before it existed) converts nothing, as it did then.

// reshapeZone is the zone Reshape.Zone names, or nil.
func reshapeZone(text string) *time.Location {
	if text == "" {
		return nil
	}
	if strings.EqualFold(text, "SYSTEM") {
		return time.Local
	}
	hs, ms, ok := strings.Cut(strings.TrimLeft(text, "+-"), ":")
	h, err1 := strconv.Atoi(hs)
	m, err2 := strconv.Atoi(ms)
	if !ok || err1 != nil || err2 != nil {
		return nil
	}
	secs := h*3600 + m*60
	if text[0] == '-' {
		secs = -secs
	}
	return time.FixedZone(text, secs)
}

// ZoneName is how a Reshape names loc (Reshape.Zone).
func ZoneName(loc *time.Location) string {
	if loc == time.Local {
		return "SYSTEM"
	}
	return loc.String()
}

// fromTimestamp is v, a TIMESTAMP of oldDef's column src, as the session's
// wall time when the column stops being a TIMESTAMP.
func (rs *Reshape) fromTimestamp(oldDef, newDef *TableDef, src, col int, v types.Value) types.Value {
	zone, store := reshapeZone(rs.Zone), oldDef.TimestampStore()
	if zone == nil || store == nil || oldDef.Columns[src].Type.Base != types.TTimestamp || newDef.Columns[col].Type.Base == types.TTimestamp {
		return v
	}
	return types.ShiftZone(v, store, zone)
}

// toTimestamp is cv, a value converted for newDef's TIMESTAMP column col
// from a column that was not one, as the table stores it; ok is false
// when it is outside TIMESTAMP's range.
func (rs *Reshape) toTimestamp(oldDef, newDef *TableDef, src, col int, cv types.Value) (types.Value, bool) {
	zone, store := reshapeZone(rs.Zone), newDef.TimestampStore()
	if zone == nil || store == nil || src < 0 || cv.K != types.KindTime ||
		newDef.Columns[col].Type.Base != types.TTimestamp || oldDef.Columns[src].Type.Base == types.TTimestamp {
		return cv, true
	}
	if !types.TimestampFits(cv, zone) {
		return cv, false
	}
	return types.ShiftZone(cv, zone, store), true
}
