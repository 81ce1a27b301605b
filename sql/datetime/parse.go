package datetime

import (
	"strconv"
	"strings"
	"time"

	"github.com/plrun/plrun/types"
)

// Parsed is a date or datetime read from text.
type Parsed struct {
	T      time.Time
	Fsp    int  // fractional digits written (0-6)
	IsDate bool // no time part was written
}

// Parse reads a date or datetime as MariaDB does: YYYY-MM-DD[ HH:MM:SS[.f]]
// with any punctuation as delimiters, a 'T' between date and time, two-
// digit years (70-99 are 19xx), and the digits-only forms YYYYMMDD,
// YYMMDD, YYYYMMDDHHMMSS and YYMMDDHHMMSS.
func Parse(s string) (Parsed, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Parsed{}, false
	}
	if allDigits(s) || (strings.Count(s, ".") == 1 && allDigits(strings.Replace(s, ".", "", 1)) && len(s) > 9) {
		return parseDigits(s)
	}
	var fields []string
	var frac string
	cur := strings.Builder{}
	i := 0
	for ; i < len(s); i++ {
		ch := s[i]
		if ch >= '0' && ch <= '9' {
			cur.WriteByte(ch)
			continue
		}
		if cur.Len() == 0 && !(len(fields) == 3 && (ch == ' ' || ch == 'T')) {
			return Parsed{}, false
		}
		if cur.Len() > 0 {
			fields = append(fields, cur.String())
			cur.Reset()
		}
		if ch == '.' && len(fields) == 6 {
			frac = s[i+1:]
			i = len(s)
			break
		}
		if len(fields) >= 6 {
			return Parsed{}, false
		}
	}
	if cur.Len() > 0 {
		fields = append(fields, cur.String())
	}
	if len(fields) != 3 && len(fields) < 5 {
		return Parsed{}, false
	}
	if frac != "" && !allDigits(frac) {
		return Parsed{}, false
	}
	n := make([]int, 6)
	for j, f := range fields {
		if len(f) > 9 {
			return Parsed{}, false
		}
		n[j], _ = strconv.Atoi(f)
	}
	if len(fields[0]) <= 2 {
		n[0] = twoDigitYear(n[0])
	}
	return build(n, frac, len(fields) == 3)
}

func twoDigitYear(y int) int {
	if y < 70 {
		return y + 2000
	}
	return y + 1900
}

func parseDigits(s string) (Parsed, bool) {
	digits, frac, _ := strings.Cut(s, ".")
	n := make([]int, 6)
	at := func(i, w int) int { v, _ := strconv.Atoi(digits[i : i+w]); return v }
	switch len(digits) {
	case 8:
		n[0], n[1], n[2] = at(0, 4), at(4, 2), at(6, 2)
		return build(n, frac, frac == "")
	case 6:
		n[0], n[1], n[2] = twoDigitYear(at(0, 2)), at(2, 2), at(4, 2)
		return build(n, frac, frac == "")
	case 14:
		n[0], n[1], n[2], n[3], n[4], n[5] = at(0, 4), at(4, 2), at(6, 2), at(8, 2), at(10, 2), at(12, 2)
	case 12:
		n[0], n[1], n[2], n[3], n[4], n[5] = twoDigitYear(at(0, 2)), at(2, 2), at(4, 2), at(6, 2), at(8, 2), at(10, 2)
	default:
		return Parsed{}, false
	}
	return build(n, frac, false)
}

func build(n []int, frac string, isDate bool) (Parsed, bool) {
	y, mo, d, h, mi, sec := n[0], n[1], n[2], n[3], n[4], n[5]
	if y > 9999 || mo < 1 || mo > 12 || d < 1 || d > DaysIn(y, time.Month(mo)) || h > 23 || mi > 59 || sec > 59 {
		return Parsed{}, false
	}
	fsp := len(frac)
	if fsp > 6 {
		frac = frac[:6]
		fsp = 6
	}
	us := 0
	if fsp > 0 {
		us, _ = strconv.Atoi(frac + strings.Repeat("0", 6-fsp))
	}
	return Parsed{T: time.Date(y, time.Month(mo), d, h, mi, sec, us*1000, time.UTC), Fsp: fsp, IsDate: isDate}, true
}

// DaysIn is the number of days of month m of year y.
func DaysIn(y int, m time.Month) int {
	return time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
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

// Duration is a TIME value: a signed span of at most 838:59:59.
type Duration struct {
	Neg bool
	D   time.Duration
}

// MaxTime is TIME's limit, 838:59:59.
const MaxTime = 838*time.Hour + 59*time.Minute + 59*time.Second

// FormatDuration prints a TIME as MySQL does: [-]HH:MM:SS[.fff].
func FormatDuration(d time.Duration, fsp int) string {
	neg := d < 0
	if neg {
		d = -d
	}
	if d > MaxTime {
		d = MaxTime
	}
	h := int64(d / time.Hour)
	m := int64(d/time.Minute) % 60
	sec := int64(d/time.Second) % 60
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	b.WriteString(pad(h, 2))
	b.WriteByte(':')
	b.WriteString(pad(m, 2))
	b.WriteByte(':')
	b.WriteString(pad(sec, 2))
	if fsp > 0 {
		us := int64(d/time.Microsecond) % 1e6
		b.WriteByte('.')
		b.WriteString(pad(us, 6)[:fsp])
	}
	return b.String()
}

// ParseDuration reads TIME text: [-][D ]HH:MM[:SS[.f]], HHMMSS, or a
// datetime's time part.
func ParseDuration(s string) (time.Duration, int, bool) {
	s = strings.TrimSpace(s)
	if p, ok := Parse(s); ok && !p.IsDate {
		t := p.T
		return time.Duration(t.Hour())*time.Hour + time.Duration(t.Minute())*time.Minute + time.Duration(t.Second())*time.Second + time.Duration(t.Nanosecond()), p.Fsp, true
	}
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var days int64
	if d, rest, ok := strings.Cut(s, " "); ok && allDigits(d) {
		days, _ = strconv.ParseInt(d, 10, 64)
		s = rest
	}
	main, frac, _ := strings.Cut(s, ".")
	parts := strings.Split(main, ":")
	for _, p := range parts {
		if !allDigits(p) {
			return 0, 0, false
		}
	}
	h, m, sec, ok := types.ClockParts(parts, false)
	if !ok || (frac != "" && !allDigits(frac)) {
		return 0, 0, false
	}
	fsp := min(len(frac), 6)
	var us int64
	if fsp > 0 {
		us, _ = strconv.ParseInt((frac + "000000")[:6], 10, 64)
	}
	d := time.Duration(days*24+h)*time.Hour + time.Duration(m)*time.Minute + time.Duration(sec)*time.Second + time.Duration(us)*time.Microsecond
	if d > MaxTime {
		d = MaxTime
	}
	if neg {
		d = -d
	}
	return d, fsp, true
}

func pad(n int64, w int) string {
	s := strconv.FormatInt(n, 10)
	for len(s) < w {
		s = "0" + s
	}
	return s
}
