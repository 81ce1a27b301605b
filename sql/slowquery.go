package sql

import (
	"strconv"
	"time"

	"github.com/plrun/plrun/sql/sysvar"
)

var longQueryTime = sysvar.Defs["long_query_time"]

// slowQuery counts a statement that took longer than the session's
// long_query_time (MySQL counts whether or not the slow log is on).
func (s *Session) slowQuery(took time.Duration) {
	if took > s.longQueryTime() {
		s.database.Counters.Slow()
	}
}

// longQueryTime is the session's long_query_time, parsed once per change.
func (s *Session) longQueryTime() time.Duration {
	text := s.getVar(longQueryTime, false)
	if text != s.longQueryText {
		f, _ := strconv.ParseFloat(text, 64)
		s.longQuery, s.longQueryText = time.Duration(f*float64(time.Second)), text
	}
	return s.longQuery
}
