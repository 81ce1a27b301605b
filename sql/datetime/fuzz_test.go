package datetime

import "testing"

// FuzzText: no date text, format or interval panics, and what Parse
// accepts is a real day of years 1-9999 (or 0 for two-digit forms).
func FuzzText(f *testing.F) {
	f.Add("2024-03-05 14:07:09.123456", "%a %D %j %U %v %x %r", "1 2:3:4", "DAY_SECOND")
	f.Add("05/03/2024", "%d/%m/%Y", "-1.5", "SECOND")
	f.Add("20240229", "%M %e %Y %h:%i %p", "9999999999999", "YEAR")
	f.Fuzz(func(t *testing.T, text, format, interval, unit string) {
		if p, ok := Parse(text); ok {
			if y := p.T.Year(); y > 9999 || p.T.Day() > DaysIn(y, p.T.Month()) {
				t.Fatalf("%q parsed as %v", text, p.T)
			}
			Format(p.T, format)
			Week(p.T, WeekMode(len(format)))
			if iv, ok := ParseInterval(interval, unit); ok {
				Add(p.T, iv)
				Diff(unit, p.T, p.T)
			}
		}
		StrToDate(text, format)
		FormatKind(format)
		if d, _, ok := ParseDuration(text); ok {
			FormatDuration(d, 6)
		}
	})
}
