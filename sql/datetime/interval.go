package datetime

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// A field of an INTERVAL unit, most significant first.
type field uint8

const (
	fYear field = iota
	fQuarter
	fMonth
	fWeek
	fDay
	fHour
	fMinute
	fSecond
	fMicro
)

// Units are the INTERVAL units by their SQL name, each the fields its
// value is written in (DAY_SECOND is 'D H:M:S').
var Units = map[string][]field{
	"MICROSECOND": {fMicro}, "SECOND": {fSecond}, "MINUTE": {fMinute}, "HOUR": {fHour},
	"DAY": {fDay}, "WEEK": {fWeek}, "MONTH": {fMonth}, "QUARTER": {fQuarter}, "YEAR": {fYear},
	"SECOND_MICROSECOND": {fSecond, fMicro}, "MINUTE_MICROSECOND": {fMinute, fSecond, fMicro},
	"MINUTE_SECOND": {fMinute, fSecond}, "HOUR_MICROSECOND": {fHour, fMinute, fSecond, fMicro},
	"HOUR_SECOND": {fHour, fMinute, fSecond}, "HOUR_MINUTE": {fHour, fMinute},
	"DAY_MICROSECOND": {fDay, fHour, fMinute, fSecond, fMicro}, "DAY_SECOND": {fDay, fHour, fMinute, fSecond},
	"DAY_MINUTE": {fDay, fHour, fMinute}, "DAY_HOUR": {fDay, fHour}, "YEAR_MONTH": {fYear, fMonth},
}

// fieldMax is the most of each field an interval may hold: a little
// over 10000 years.
var fieldMax = map[field]int64{
	fYear: 10000, fQuarter: 40000, fMonth: 120000, fWeek: 530000, fDay: 3700000,
	fHour: 88000000, fMinute: 5300000000, fSecond: 316000000000, fMicro: 316000000000000000,
}

// Interval is an INTERVAL value: calendar months, then a fixed span.
type Interval struct {
	Months int64
	Micros int64
	Fsp    int // fractional digits it adds to a result
}

// HasTime reports whether the unit moves the clock (so a DATE becomes a
// DATETIME).
func HasTime(unit string) bool {
	for _, f := range Units[unit] {
		if f >= fHour {
			return true
		}
	}
	return false
}

// ParseInterval reads the value of INTERVAL v unit. A single-field unit
// takes a number (SECOND keeps its fraction, others round); a compound
// one takes digits split by any punctuation, aligned to its last field
// when fewer are written. ok is false for a unit it does not know or a
// value past range.
func ParseInterval(v string, unit string) (Interval, bool) {
	fields, known := Units[unit]
	if !known {
		return Interval{}, false
	}
	v = strings.TrimSpace(v)
	neg := strings.HasPrefix(v, "-")
	if neg {
		v = strings.TrimSpace(v[1:])
	}
	var n []int64
	fsp := 0
	if len(fields) == 1 {
		f, err := strconv.ParseFloat(leadingNumber(v), 64)
		if err != nil {
			f = 0
		}
		if fields[0] == fSecond {
			if _, frac, ok := strings.Cut(leadingNumber(v), "."); ok {
				fsp = min(len(frac), 6)
			}
			us := math.Round(f * 1e6)
			if math.Abs(us) > 1e17 {
				return Interval{}, false
			}
			iv := Interval{Micros: int64(us), Fsp: fsp}
			if neg {
				iv.Micros = -iv.Micros
			}
			return iv, true
		}
		if math.Abs(f) > float64(fieldMax[fields[0]]) {
			return Interval{}, false
		}
		n = []int64{int64(math.Round(f))}
	} else {
		for _, p := range strings.FieldsFunc(v, func(r rune) bool { return r < '0' || r > '9' }) {
			x, err := strconv.ParseInt(p, 10, 64)
			if err != nil || x > 1e12 {
				return Interval{}, false
			}
			n = append(n, x)
		}
		if len(n) > len(fields) {
			return Interval{}, false
		}
		fields = fields[len(fields)-len(n):]
		if len(fields) > 0 && fields[len(fields)-1] == fMicro {
			fsp = 6
		}
	}
	var iv Interval
	for i, f := range fields {
		x := n[i]
		// past 10000 years in any unit the answer is out of range anyway;
		// stopping here keeps the products below from overflowing
		if x > fieldMax[f] {
			return Interval{}, false
		}
		switch f {
		case fYear:
			iv.Months += x * 12
		case fQuarter:
			iv.Months += x * 3
		case fMonth:
			iv.Months += x
		case fWeek:
			iv.Micros += x * 7 * 86400e6
		case fDay:
			iv.Micros += x * 86400e6
		case fHour:
			iv.Micros += x * 3600e6
		case fMinute:
			iv.Micros += x * 60e6
		case fSecond:
			iv.Micros += x * 1e6
		case fMicro:
			iv.Micros += x
		}
	}
	if neg {
		iv.Months, iv.Micros = -iv.Months, -iv.Micros
	}
	iv.Fsp = fsp
	return iv, true
}

func leadingNumber(s string) string {
	end := 0
	dot := false
	for end < len(s) && (s[end] >= '0' && s[end] <= '9' || s[end] == '.' && !dot) {
		dot = dot || s[end] == '.'
		end++
	}
	if end == 0 {
		return "0"
	}
	return s[:end]
}

// Add is t moved by iv, the months first with the day clamped to the end
// of the month (2024-01-31 + 1 MONTH is 2024-02-29). ok is false past
// year 9999 or before year 1 (MariaDB: NULL with a warning).
func Add(t time.Time, iv Interval) (time.Time, bool) {
	if iv.Months != 0 {
		total := int64(t.Year())*12 + int64(t.Month()-1) + iv.Months
		if total < 12 || total >= 10000*12 {
			return time.Time{}, false
		}
		y, m := int(total/12), time.Month(total%12+1)
		d := min(t.Day(), DaysIn(y, m))
		t = time.Date(y, m, d, t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
	}
	if iv.Micros != 0 {
		days := iv.Micros / 86400e6
		rest := iv.Micros % 86400e6
		if days > 4000000 || days < -4000000 {
			return time.Time{}, false
		}
		t = t.AddDate(0, 0, int(days)).Add(time.Duration(rest) * time.Microsecond)
	}
	if t.Year() < 1 || t.Year() > 9999 {
		return time.Time{}, false
	}
	return t, true
}

// Diff is TIMESTAMPDIFF(unit, a, b): whole units from a to b, months
// counted by the calendar (a later day of month or time of day does not
// complete a month).
func Diff(unit string, a, b time.Time) (int64, bool) {
	// microseconds apart: time.Time.Sub saturates past 292 years
	us := (b.Unix()-a.Unix())*1e6 + int64(b.Nanosecond()/1000-a.Nanosecond()/1000)
	switch unit {
	case "MICROSECOND":
		return us, true
	case "SECOND":
		return us / 1e6, true
	case "MINUTE":
		return us / 60e6, true
	case "HOUR":
		return us / 3600e6, true
	case "DAY":
		return us / 86400e6, true
	case "WEEK":
		return us / (7 * 86400e6), true
	case "MONTH", "QUARTER", "YEAR":
		neg := b.Before(a)
		if neg {
			a, b = b, a
		}
		months := int64(b.Year()-a.Year())*12 + int64(b.Month()-a.Month())
		// the remainder of b within its month is before a's: not complete
		ra := time.Date(2000, 1, a.Day(), a.Hour(), a.Minute(), a.Second(), a.Nanosecond(), time.UTC)
		rb := time.Date(2000, 1, b.Day(), b.Hour(), b.Minute(), b.Second(), b.Nanosecond(), time.UTC)
		if rb.Before(ra) {
			months--
		}
		if neg {
			months = -months
		}
		switch unit {
		case "QUARTER":
			return months / 3, true
		case "YEAR":
			return months / 12, true
		}
		return months, true
	}
	return 0, false
}
