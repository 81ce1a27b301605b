package sysvar

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/plrun/plrun/sqlerr"
)

// ParseTimeZone reads a time_zone value: SYSTEM (the process's zone) or
// an offset '+hh:mm' from -12:59 to +13:00, MariaDB's range. Named zones
// need MariaDB's time zone tables, which plrun (like a fresh MariaDB)
// does not have: error 1298.
func ParseTimeZone(text string) (*time.Location, error) {
	bad := sqlerr.New(sqlerr.ErUnknownTimeZone, "Unknown or incorrect time zone: '%s'", text)
	if strings.EqualFold(text, "SYSTEM") {
		return time.Local, nil
	}
	if len(text) < 2 || text[0] != '+' && text[0] != '-' {
		return nil, bad
	}
	hs, ms, ok := strings.Cut(text[1:], ":")
	if !ok || len(hs) == 0 || len(hs) > 2 || len(ms) != 2 {
		return nil, bad
	}
	h, err1 := strconv.Atoi(hs)
	m, err2 := strconv.Atoi(ms)
	if err1 != nil || err2 != nil || m > 59 || hs[0] == '+' || hs[0] == '-' {
		return nil, bad
	}
	secs := h*3600 + m*60
	if text[0] == '-' {
		secs = -secs
	}
	if secs > 13*3600 || secs < -(12*3600+59*60) {
		return nil, bad
	}
	return time.FixedZone(CanonicalTimeZone(text), secs), nil
}

// CanonicalTimeZone is how @@time_zone shows an accepted value: SYSTEM,
// or the offset with two-digit hours ('+5:00' is '+05:00').
func CanonicalTimeZone(text string) string {
	if strings.EqualFold(text, "SYSTEM") {
		return "SYSTEM"
	}
	hs, ms, _ := strings.Cut(text[1:], ":")
	h, _ := strconv.Atoi(hs)
	return fmt.Sprintf("%c%02d:%s", text[0], h, ms)
}
