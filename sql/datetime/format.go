package datetime

import (
	"strconv"
	"strings"
	"time"
)

var monthNames = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
var dayNames = []string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}

// MonthName is MONTHNAME's English name of month m.
func MonthName(m time.Month) string { return monthNames[m-1] }

// DayName is DAYNAME's English name of t's weekday.
func DayName(t time.Time) string { return dayNames[weekdayOf(t, false)] }

func ordinal(d int) string {
	suffix := "th"
	if d/10%10 != 1 {
		switch d % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return strconv.Itoa(d) + suffix
}

func hour12(h int) int {
	if h%12 == 0 {
		return 12
	}
	return h % 12
}

func ampm(h int) string {
	if h < 12 {
		return "AM"
	}
	return "PM"
}

// Format is DATE_FORMAT: every MySQL specifier; %x for an unknown x is x.
func Format(t time.Time, f string) string {
	var b strings.Builder
	b.Grow(len(f) + 16)
	var digits [20]byte
	num := func(n, w int) {
		// zero-padded to w digits without building a string per field
		d := strconv.AppendInt(digits[:0], int64(n), 10)
		for i := len(d); i < w; i++ {
			b.WriteByte('0')
		}
		b.Write(d)
	}
	for i := 0; i < len(f); i++ {
		if f[i] != '%' || i+1 == len(f) {
			b.WriteByte(f[i])
			continue
		}
		i++
		switch f[i] {
		case 'a':
			b.WriteString(DayName(t)[:3])
		case 'b':
			b.WriteString(MonthName(t.Month())[:3])
		case 'c':
			num(int(t.Month()), 1)
		case 'D':
			b.WriteString(ordinal(t.Day()))
		case 'd':
			num(t.Day(), 2)
		case 'e':
			num(t.Day(), 1)
		case 'f':
			num(t.Nanosecond()/1000, 6)
		case 'H':
			num(t.Hour(), 2)
		case 'h', 'I':
			num(hour12(t.Hour()), 2)
		case 'i':
			num(t.Minute(), 2)
		case 'j':
			num(t.YearDay(), 3)
		case 'k':
			num(t.Hour(), 1)
		case 'l':
			num(hour12(t.Hour()), 1)
		case 'M':
			b.WriteString(MonthName(t.Month()))
		case 'm':
			num(int(t.Month()), 2)
		case 'p':
			b.WriteString(ampm(t.Hour()))
		case 'r':
			num(hour12(t.Hour()), 2)
			b.WriteByte(':')
			num(t.Minute(), 2)
			b.WriteByte(':')
			num(t.Second(), 2)
			b.WriteString(" " + ampm(t.Hour()))
		case 'S', 's':
			num(t.Second(), 2)
		case 'T':
			num(t.Hour(), 2)
			b.WriteByte(':')
			num(t.Minute(), 2)
			b.WriteByte(':')
			num(t.Second(), 2)
		case 'U':
			w, _ := Week(t, weekFirstDay)
			num(w, 2)
		case 'u':
			w, _ := Week(t, weekMondayFirst)
			num(w, 2)
		case 'V':
			w, _ := Week(t, weekYear|weekFirstDay)
			num(w, 2)
		case 'v':
			w, _ := Week(t, weekMondayFirst|weekYear)
			num(w, 2)
		case 'W':
			b.WriteString(DayName(t))
		case 'w':
			num(int(t.Weekday()), 1)
		case 'X':
			_, y := Week(t, weekYear|weekFirstDay)
			num(y, 4)
		case 'x':
			_, y := Week(t, weekMondayFirst|weekYear)
			num(y, 4)
		case 'Y':
			num(t.Year(), 4)
		case 'y':
			num(t.Year()%100, 2)
		default:
			b.WriteByte(f[i])
		}
	}
	return b.String()
}

// FormatClock is TIME_FORMAT: DATE_FORMAT's hour, minute, second and
// fraction specifiers over a TIME (hours past 23 printed whole); the
// date specifiers give NULL in MariaDB and are left as written here.
func FormatClock(d time.Duration, f string) string {
	neg := d < 0
	if neg {
		d = -d
	}
	h := int(d / time.Hour)
	t := time.Date(2000, 1, 1, h%24, int(d/time.Minute%60), int(d/time.Second%60), int(d%time.Second), time.UTC)
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i := 0; i < len(f); i++ {
		if f[i] != '%' || i+1 == len(f) {
			b.WriteByte(f[i])
			continue
		}
		i++
		switch f[i] {
		case 'H':
			b.WriteString(pad(int64(h), 2))
		case 'k':
			b.WriteString(strconv.Itoa(h))
		case 'h', 'I', 'l', 'i', 's', 'S', 'f', 'p', 'r', 'T':
			b.WriteString(Format(t, "%"+string(f[i])))
		default:
			b.WriteByte(f[i])
		}
	}
	return b.String()
}
