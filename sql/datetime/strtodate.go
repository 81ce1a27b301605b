package datetime

import (
	"strings"
	"time"
)

// FormatKind says what STR_TO_DATE of format f returns: 'd' a DATE (only
// date specifiers), 't' a TIME (only time ones), else 'x' a DATETIME.
func FormatKind(f string) byte {
	date, tm := false, false
	for i := 0; i+1 < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		i++
		switch f[i] {
		case 'Y', 'y', 'm', 'c', 'd', 'e', 'M', 'b', 'a', 'W', 'D', 'j', 'U', 'u', 'V', 'v', 'X', 'x', 'w':
			date = true
		case 'H', 'k', 'h', 'I', 'l', 'i', 's', 'S', 'f', 'p', 'T', 'r':
			tm = true
		}
	}
	switch {
	case date && !tm:
		return 'd'
	case tm && !date:
		return 't'
	}
	return 'x'
}

// StrToDate is STR_TO_DATE: s read by format f. ok is false when s does
// not match f or names an impossible date (MariaDB: NULL, warning 1411).
func StrToDate(s, f string) (time.Time, bool) {
	y, mo, d, h, mi, sec, us := 0, 1, 1, 0, 0, 0, 0
	yearDay := 0
	pm, hasAMPM, hour12 := false, false, false
	si := 0
	skipSpace := func() {
		for si < len(s) && s[si] == ' ' {
			si++
		}
	}
	readNum := func(maxw int) (int, bool) {
		skipSpace()
		start := si
		neg := false
		if si < len(s) && (s[si] == '-' || s[si] == '+') {
			neg = s[si] == '-'
			si++
		}
		n := 0
		for si < len(s) && si-start < maxw && s[si] >= '0' && s[si] <= '9' {
			n = n*10 + int(s[si]-'0')
			si++
		}
		if si == start || (neg && n == 0 && si == start+1) {
			return 0, false
		}
		if neg {
			n = -n
		}
		return n, true
	}
	readName := func(names []string, short bool) (int, bool) {
		skipSpace()
		for i, n := range names {
			if short {
				n = n[:3]
			}
			if len(s)-si >= len(n) && strings.EqualFold(s[si:si+len(n)], n) {
				si += len(n)
				return i, true
			}
		}
		return 0, false
	}
	ok := true
	for fi := 0; fi < len(f) && ok; fi++ {
		c := f[fi]
		if c == ' ' {
			skipSpace()
			continue
		}
		if c != '%' || fi+1 == len(f) {
			if si >= len(s) || s[si] != c {
				return time.Time{}, false
			}
			si++
			continue
		}
		fi++
		switch f[fi] {
		case 'Y':
			var n int
			start := si
			n, ok = readNum(4)
			if ok && si-start <= 2 {
				n = twoDigitYear(n)
			}
			y = n
		case 'y':
			var n int
			n, ok = readNum(2)
			y = twoDigitYear(n)
		case 'm', 'c':
			mo, ok = readNum(2)
		case 'd', 'e':
			d, ok = readNum(2)
		case 'D':
			d, ok = readNum(2)
			if ok && len(s)-si >= 2 {
				si += 2
			}
		case 'j':
			yearDay, ok = readNum(3)
		case 'H', 'k':
			h, ok = readNum(2)
		case 'h', 'I', 'l':
			h, ok = readNum(2)
			hour12 = true
		case 'i':
			mi, ok = readNum(2)
		case 's', 'S':
			sec, ok = readNum(2)
		case 'f':
			start := si
			var n int
			n, ok = readNum(6)
			for w := si - start; w < 6; w++ {
				n *= 10
			}
			us = n
		case 'p':
			skipSpace()
			if len(s)-si >= 2 && (strings.EqualFold(s[si:si+2], "AM") || strings.EqualFold(s[si:si+2], "PM")) {
				pm = strings.EqualFold(s[si:si+2], "PM")
				hasAMPM = true
				si += 2
			} else {
				ok = false
			}
		case 'M':
			var m int
			m, ok = readName(monthNames, false)
			mo = m + 1
		case 'b':
			var m int
			m, ok = readName(monthNames, true)
			mo = m + 1
		case 'W':
			_, ok = readName(dayNames, false)
		case 'a':
			_, ok = readName(dayNames, true)
		case 'r':
			// hh:mm:ss AM|PM
			h, ok = readNum(2)
			ok = ok && si < len(s) && s[si] == ':'
			si++
			mi, ok = readNum(2)
			ok = ok && si < len(s) && s[si] == ':'
			si++
			sec, ok = readNum(2)
			skipSpace()
			if ok && len(s)-si >= 2 && (strings.EqualFold(s[si:si+2], "AM") || strings.EqualFold(s[si:si+2], "PM")) {
				pm, hasAMPM = strings.EqualFold(s[si:si+2], "PM"), true
				si += 2
			} else {
				ok = false
			}
		case 'T':
			h, ok = readNum(2)
			ok = ok && si < len(s) && s[si] == ':'
			si++
			mi, ok = readNum(2)
			ok = ok && si < len(s) && s[si] == ':'
			si++
			sec, ok = readNum(2)
		case '%':
			ok = si < len(s) && s[si] == '%'
			si++
		default:
			return time.Time{}, false
		}
	}
	if !ok {
		return time.Time{}, false
	}
	if hasAMPM || hour12 {
		if h < 1 || h > 12 {
			return time.Time{}, false
		}
		h %= 12
		if pm {
			h += 12
		}
	}
	if yearDay > 0 {
		if yearDay > daysInYear(y) {
			return time.Time{}, false
		}
		t := time.Date(y, 1, 1, h, mi, sec, us*1000, time.UTC).AddDate(0, 0, yearDay-1)
		return t, true
	}
	if y < 0 || y > 9999 || mo < 1 || mo > 12 || d < 1 || d > DaysIn(y, time.Month(mo)) || h > 23 || mi > 59 || sec > 59 {
		return time.Time{}, false
	}
	return time.Date(y, time.Month(mo), d, h, mi, sec, us*1000, time.UTC), true
}
