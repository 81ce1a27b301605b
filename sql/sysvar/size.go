package sysvar

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/plrun/plrun/sqlerr"
)

// sizeShifts are the suffixes mysqld takes on a number given on its
// command line or in an option file (--innodb-buffer-pool-size=512M):
// powers of 1024, in either case.
var sizeShifts = map[byte]uint{'k': 10, 'm': 20, 'g': 30, 't': 40}

// ParseSize reads a size as mysqld reads a number on its command line:
// an integer, optionally followed by K, M, G or T (either case) for
// 1024, 1024², 1024³ or 1024⁴ times it, so "512M" is 536870912. Anything
// else, and a value past the int64 range, is an error.
func ParseSize(text string) (int64, error) {
	t := strings.TrimSpace(text)
	shift := uint(0)
	if t != "" {
		if s, ok := sizeShifts[lower(t[len(t)-1])]; ok {
			shift, t = s, t[:len(t)-1]
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || strings.HasPrefix(t, "+") {
		return 0, fmt.Errorf("%q is not a size (an integer, optionally followed by K, M, G or T)", text)
	}
	if n > math.MaxInt64>>shift || n < math.MinInt64>>shift {
		return 0, fmt.Errorf("%q is too large", text)
	}
	return n << shift, nil
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// hasSizeSuffix reports whether text ends in a size suffix after a digit.
func hasSizeSuffix(text string) bool {
	t := strings.TrimSpace(text)
	if len(t) < 2 {
		return false
	}
	_, ok := sizeShifts[lower(t[len(t)-1])]
	c := t[len(t)-2]
	return ok && '0' <= c && c <= '9'
}

// OptionText is the text of a setting given on the command line (--set,
// a bench flag) or in an option file, as mysqld reads one: an integer
// variable's value may carry a size suffix (512M), which is expanded
// here. SET never comes this way: there a suffix stays the string it is
// (error 1232, as in MariaDB). Any other text is returned as it is, for
// Literal and Normalize to judge.
func OptionText(d *Def, text string) (string, error) {
	if d.Kind != KindInt || !hasSizeSuffix(text) {
		return text, nil
	}
	n, err := ParseSize(text)
	if err != nil {
		return "", sqlerr.New(sqlerr.ErWrongValueForVar, "Variable '%s' can't be set to the value of '%s'", d.Name, strings.TrimSpace(text))
	}
	return strconv.FormatInt(n, 10), nil
}
