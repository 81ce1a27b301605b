package datetime

import "time"

// The bits of a week mode, as MySQL's calc_week reads them.
const (
	weekMondayFirst = 1
	weekYear        = 2
	weekFirstDay    = 4
)

// WeekMode turns WEEK()'s mode argument (0-7) into calc_week's bits.
func WeekMode(mode int) int {
	m := mode & 7
	if m&weekMondayFirst == 0 {
		m ^= weekFirstDay
	}
	return m
}

// YearWeekMode is YEARWEEK's: WEEK's with the week always in its own year.
func YearWeekMode(mode int) int { return WeekMode(mode) | weekYear }

func dayNumber(t time.Time) int {
	return int(time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC).Unix() / 86400)
}

func daysInYear(y int) int {
	if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
		return 366
	}
	return 365
}

// weekdayOf is 0 for Monday (or Sunday when sundayFirst) through 6.
func weekdayOf(t time.Time, sundayFirst bool) int {
	if sundayFirst {
		return int(t.Weekday())
	}
	return (int(t.Weekday()) + 6) % 7
}

// Week is MySQL's calc_week: the week number of t under behaviour (the
// bits above) and the year that week belongs to.
func Week(t time.Time, behaviour int) (week, year int) {
	daynr := dayNumber(t)
	jan1 := time.Date(t.Year(), 1, 1, 0, 0, 0, 0, time.UTC)
	firstDaynr := dayNumber(jan1)
	mondayFirst := behaviour&weekMondayFirst != 0
	inYear := behaviour&weekYear != 0
	firstWeekday := behaviour&weekFirstDay != 0
	weekday := weekdayOf(jan1, !mondayFirst)
	year = t.Year()
	if t.Month() == 1 && t.Day() <= 7-weekday {
		if !inYear && ((firstWeekday && weekday != 0) || (!firstWeekday && weekday >= 4)) {
			return 0, year
		}
		inYear = true
		year--
		days := daysInYear(year)
		firstDaynr -= days
		weekday = (weekday + 53*7 - days) % 7
	}
	var days int
	if (firstWeekday && weekday != 0) || (!firstWeekday && weekday >= 4) {
		days = daynr - (firstDaynr + (7 - weekday))
	} else {
		days = daynr - (firstDaynr - weekday)
	}
	if inYear && days >= 52*7 {
		weekday = (weekday + daysInYear(year)) % 7
		if (!firstWeekday && weekday < 4) || (firstWeekday && weekday == 0) {
			return 1, year + 1
		}
	}
	return days/7 + 1, year
}
