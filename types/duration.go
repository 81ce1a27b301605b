package types

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// A TIME value (KindDuration) is a signed count of microseconds, I, with
// P its fractional digits for printing; MySQL's range is
// -838:59:59.999999 to 838:59:59.999999.
const maxDurationMicros = (838*3600+59*60+59)*1_000_000 + 999_999

// DurationValue is a TIME of micros microseconds printed with fsp
// fractional digits.
func DurationValue(micros int64, fsp int) Value {
	return Value{K: KindDuration, I: micros, P: uint8(fsp)}
}

// formatDuration prints a TIME as MySQL does: [-]HH:MM:SS[.f], hours as
// many digits as they need (at least two).
func formatDuration(micros int64, fsp int) string {
	sign := ""
	if micros < 0 {
		sign, micros = "-", -micros
	}
	secs := micros / 1_000_000
	s := fmt.Sprintf("%s%02d:%02d:%02d", sign, secs/3600, secs/60%60, secs%60)
	if fsp > 0 {
		s += fmt.Sprintf(".%06d", micros%1_000_000)[:1+fsp]
	}
	return s
}

// durationNumber is a TIME as a number: [-]HHMMSS, with its fraction.
func durationNumber(micros int64) (whole int64, frac int64) {
	neg := micros < 0
	if neg {
		micros = -micros
	}
	secs := micros / 1_000_000
	whole = secs/3600*10000 + secs/60%60*100 + secs%60
	frac = micros % 1_000_000
	if neg {
		whole, frac = -whole, -frac
	}
	return whole, frac
}

// ParseDuration reads TIME text as MariaDB stores it in a TIME column:
// [-][D ]HH:MM[:SS[.f]], [-]HHMMSS[.f] (digits right-aligned: SS, MMSS,
// HHMMSS), or a datetime whose time of day it takes. ok is false for
// text that is not a time or is outside TIME's range.
func ParseDuration(s string) (micros int64, ok bool) {
	s = strings.TrimSpace(s)
	if strings.Count(s, "-") > 1 || strings.ContainsAny(s, "/T") || strings.Count(s, ":") == 0 && strings.Contains(s, " ") {
		if t, ok := ParseTime(s); ok {
			return int64(t.Hour()*3600+t.Minute()*60+t.Second())*1_000_000 + int64(t.Nanosecond()/1000), true
		}
		return 0, false
	}
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var days int64
	if d, rest, cut := strings.Cut(s, " "); cut {
		n, err := strconv.ParseInt(d, 10, 64)
		if err != nil || !allDigits(d) || n > 34 {
			return 0, false
		}
		days, s = n, strings.TrimSpace(rest)
	}
	main, frac, _ := strings.Cut(s, ".")
	if frac != "" && !allDigits(frac) {
		return 0, false
	}
	parts := strings.Split(main, ":")
	for _, p := range parts {
		if !allDigits(p) || len(p) > 10 {
			return 0, false
		}
	}
	h, m, sec, ok := ClockParts(parts, days > 0) // 'D HH' after a day count
	if !ok {
		return 0, false
	}
	var us int64
	if frac != "" {
		us, _ = strconv.ParseInt((frac + "000000")[:6], 10, 64)
	}
	micros = ((days*24+h)*3600+m*60+sec)*1_000_000 + us
	if micros > maxDurationMicros {
		return 0, false
	}
	if neg {
		micros = -micros
	}
	return micros, true
}

// ClockParts reads the hours, minutes and seconds of TIME text split at
// ':' (digits only): one part is HHMMSS aligned right (SS, MMSS,
// HHMMSS), or hours alone when hoursOnly; two are HH:MM, three HH:MM:SS.
// ok is false for more parts or minutes or seconds past 59.
func ClockParts(parts []string, hoursOnly bool) (h, m, sec int64, ok bool) {
	switch len(parts) {
	case 1:
		v, _ := strconv.ParseInt(parts[0], 10, 64)
		if hoursOnly {
			return v, 0, 0, true
		}
		h, m, sec = v/10000, v/100%100, v%100
	case 2:
		h, _ = strconv.ParseInt(parts[0], 10, 64)
		m, _ = strconv.ParseInt(parts[1], 10, 64)
	case 3:
		h, _ = strconv.ParseInt(parts[0], 10, 64)
		m, _ = strconv.ParseInt(parts[1], 10, 64)
		sec, _ = strconv.ParseInt(parts[2], 10, 64)
	default:
		return 0, 0, 0, false
	}
	return h, m, sec, m <= 59 && sec <= 59
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// coerceDuration converts v into a TIME(t.Scale) as strict mode stores
// it: fractional digits beyond the scale are cut (MariaDB truncates),
// text that is no time or is outside the range is 1292.
func coerceDuration(v Value, t ColType) (Value, error) {
	bad := &CoerceError{Code: codeBadTime, Value: v.String(), What: "time"}
	var micros int64
	switch v.K {
	case KindDuration:
		micros = v.I
	case KindTime:
		tm := v.Time()
		micros = int64(tm.Hour()*3600+tm.Minute()*60+tm.Second())*1_000_000 + int64(tm.Nanosecond()/1000)
	case KindString:
		p, ok := ParseDuration(v.S)
		if !ok {
			return v, bad
		}
		micros = p
	default:
		f := v.ToFloat()
		if math.IsNaN(f) || math.Abs(f) > 1e12 {
			return v, bad
		}
		text := strconv.FormatFloat(f, 'f', 6, 64)
		p, ok := ParseDuration(text)
		if !ok {
			return v, bad
		}
		micros = p
	}
	unit := int64(math.Pow10(6 - t.Scale))
	micros -= micros % unit // truncation toward zero, as MariaDB
	if micros > maxDurationMicros || micros < -maxDurationMicros {
		return v, bad
	}
	return DurationValue(micros, t.Scale), nil
}

// clampDuration is non-strict mode's TIME: out of range is the nearest
// end (warning 1264), text that is no time is 00:00:00 (warning 1265).
func clampDuration(v Value, t ColType) (Value, uint16) {
	if v.K == KindString {
		if _, ok := ParseDuration(v.S); !ok {
			if m, ok := parseDurationUnbounded(v.S); ok {
				return DurationValue(clampMicros(m, t.Scale), t.Scale), WarnOutOfRange
			}
			return DurationValue(0, t.Scale), WarnTruncated
		}
	}
	if v.IsNumeric() {
		text := strconv.FormatFloat(v.ToFloat(), 'f', 6, 64)
		if m, ok := parseDurationUnbounded(text); ok {
			return DurationValue(clampMicros(m, t.Scale), t.Scale), WarnOutOfRange
		}
	}
	return DurationValue(0, t.Scale), WarnTruncated
}

// parseDurationUnbounded is ParseDuration without the range check: what
// non-strict mode clamps.
func parseDurationUnbounded(s string) (int64, bool) {
	s = strings.TrimSpace(s)
	neg := strings.HasPrefix(s, "-")
	main, _, _ := strings.Cut(strings.TrimPrefix(s, "-"), ".")
	parts := strings.Split(main, ":")
	for _, p := range parts {
		if !allDigits(p) || len(p) > 12 {
			return 0, false
		}
	}
	var h, m, sec int64
	switch len(parts) {
	case 1:
		v, _ := strconv.ParseInt(parts[0], 10, 64)
		h, m, sec = v/10000, v/100%100, v%100
	case 2, 3:
		h, _ = strconv.ParseInt(parts[0], 10, 64)
		m, _ = strconv.ParseInt(parts[1], 10, 64)
		if len(parts) == 3 {
			sec, _ = strconv.ParseInt(parts[2], 10, 64)
		}
	}
	if m > 59 || sec > 59 {
		return 0, false
	}
	micros := (h*3600 + m*60 + sec) * 1_000_000
	if neg {
		micros = -micros
	}
	return micros, true
}

func clampMicros(m int64, scale int) int64 {
	limit := maxDurationMicros - maxDurationMicros%int64(math.Pow10(6-scale))
	switch {
	case m > limit:
		return limit
	case m < -limit:
		return -limit
	}
	return m
}
