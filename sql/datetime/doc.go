// Package datetime is MySQL's calendar arithmetic over Go times, with no
// SQL in it: reading date and datetime text the way MariaDB does
// (parse.go), DATE_FORMAT's and STR_TO_DATE's specifiers (format.go,
// strtodate.go), INTERVAL units and their compound forms (interval.go)
// and the week numbering modes of WEEK/YEARWEEK (week.go). Times are
// wall clocks in time.UTC; sql/expr turns them into types.Value.
//
// Go's time.Time cannot hold MySQL's zero date (0000-00-00) or dates
// with a zero month or day: they read as invalid (NULL with warning 1292
// in sql/expr), where MariaDB would keep them.
package datetime
