package types

import (
	"testing"
	"time"
)

// ShiftZone moves a wall time between zones and back; the range check is
// of the instant.
func TestShiftZone(t *testing.T) {
	plus5 := time.FixedZone("+05:00", 5*3600)
	minus330 := time.FixedZone("-03:30", -(3*3600 + 30*60))
	wall := TimeValueFsp(time.Date(2026, 6, 1, 12, 0, 0, 123000000, time.UTC), 3)
	for _, c := range []struct {
		from, to *time.Location
		want     string
	}{
		{time.UTC, plus5, "2026-06-01 17:00:00.123"},
		{plus5, time.UTC, "2026-06-01 07:00:00.123"},
		{plus5, minus330, "2026-06-01 03:30:00.123"},
		{time.UTC, time.UTC, "2026-06-01 12:00:00.123"},
	} {
		got := ShiftZone(wall, c.from, c.to)
		if got.String() != c.want {
			t.Errorf("%v -> %v: %s, want %s", c.from, c.to, got, c.want)
		}
		if back := ShiftZone(got, c.to, c.from); back != wall {
			t.Errorf("%v -> %v and back: %s", c.from, c.to, back)
		}
	}
	edge := func(s string) Value { p, _ := ParseTime(s); return TimeValue(p) }
	for _, c := range []struct {
		s    string
		loc  *time.Location
		fits bool
	}{
		{"1970-01-01 00:00:01", time.UTC, true}, {"1970-01-01 00:00:00", time.UTC, false},
		{"1970-01-01 05:00:01", plus5, true}, {"1970-01-01 05:00:00", plus5, false},
		{"2038-01-19 03:14:07", time.UTC, true}, {"2038-01-19 03:14:08", time.UTC, false},
		{"2038-01-19 08:14:07", plus5, true}, {"2038-01-19 08:14:08", plus5, false},
	} {
		if got := TimestampFits(edge(c.s), c.loc); got != c.fits {
			t.Errorf("%s in %v fits: %v", c.s, c.loc, got)
		}
	}
}

// BenchmarkShiftZone is the per-value cost of a TIMESTAMP read (stored
// UTC, shown in the session's zone) and write (the reverse).
//
//	go test ./types -run XXX -bench ShiftZone -count 5
func BenchmarkShiftZone(b *testing.B) {
	plus5 := time.FixedZone("+05:00", 5*3600)
	v := TimeValue(time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC))
	b.Run("read", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			v = ShiftZone(v, time.UTC, plus5)
		}
	})
	b.Run("write", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			v = ShiftZone(v, plus5, time.UTC)
		}
	})
}
