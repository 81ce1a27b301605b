package types

import "time"

// MySQL's TIMESTAMP range, as instants: '1970-01-01 00:00:01' UTC to
// '2038-01-19 03:14:07.999999' UTC (a signed 32-bit count of seconds).
var (
	timestampMin = time.Date(1970, 1, 1, 0, 0, 1, 0, time.UTC)
	timestampMax = time.Date(2038, 1, 19, 3, 14, 7, 999999000, time.UTC)
)

// instant is v's wall clock read in zone loc.
func instant(v Value, loc *time.Location) time.Time {
	t := v.Time()
	return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), loc)
}

// ShiftZone is v, a wall time in zone from, as the wall time of the same
// instant in zone to (how a TIMESTAMP moves between the session's
// time_zone and the zone a table stores it in). Values other than
// DATETIMEs are returned as they are. A wall time a DST change skips or
// repeats reads as Go's time.Date resolves it, as MySQL's own conversion
// picks one of the two.
func ShiftZone(v Value, from, to *time.Location) Value {
	if v.K != KindTime || v.P == PDate || from == to {
		return v
	}
	out := v
	switch {
	case from == time.UTC:
		// the wall time in UTC is the instant: add to's offset then
		_, off := time.UnixMicro(v.I).In(to).Zone()
		out.I += int64(off) * 1_000_000
	case to == time.UTC:
		out.I = instant(v, from).UnixMicro()
	default:
		out = TimeValue(instant(v, from).In(to))
		out.P = v.P
	}
	return out
}

// TimestampFits reports whether v, a wall time in zone loc, is within
// TIMESTAMP's range.
func TimestampFits(v Value, loc *time.Location) bool {
	t := instant(v, loc)
	return !t.Before(timestampMin) && !t.After(timestampMax)
}
