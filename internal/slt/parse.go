package slt

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Kind is what a record asks.
type Kind int

const (
	Statement Kind = iota // run; ok or error expected
	Query                 // run and compare values
	Halt                  // stop the file here
)

// Record is one test of a file.
type Record struct {
	Line  int // first line of the record, 1-based: its name in known-failure lists
	Kind  Kind
	SQL   string
	Error bool // statement error
	// Types has one letter per column: I integer, R real, T text.
	Types string
	Sort  string // nosort, rowsort, valuesort
	Label string
	// Expected values, or for a hashed result their count and MD5.
	Values   []string
	Hashed   bool
	NValues  int
	Hash     string
	SkipIf   []string // engines this record is not for
	OnlyIf   []string // engines this record is only for
	HasQuery bool     // the query block had a ---- separator
}

// For reports whether the record applies to engine.
func (r *Record) For(engine string) bool {
	for _, e := range r.SkipIf {
		if e == engine {
			return false
		}
	}
	if len(r.OnlyIf) == 0 {
		return true
	}
	for _, e := range r.OnlyIf {
		if e == engine {
			return true
		}
	}
	return false
}

// Parse reads every record of a file.
func Parse(rd io.Reader) ([]*Record, error) {
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	var lines []string
	for sc.Scan() {
		lines = append(lines, strings.TrimRight(sc.Text(), "\r"))
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	var out []*Record
	i := 0
	for i < len(lines) {
		// Skip blank lines and comments between records.
		if strings.TrimSpace(lines[i]) == "" || strings.HasPrefix(lines[i], "#") {
			i++
			continue
		}
		var block []string
		start := i + 1
		for i < len(lines) && strings.TrimSpace(lines[i]) != "" {
			if !strings.HasPrefix(lines[i], "#") {
				block = append(block, lines[i])
			}
			i++
		}
		r, err := parseRecord(block, start)
		if err != nil {
			return nil, err
		}
		if r != nil {
			out = append(out, r)
		}
	}
	return out, nil
}

// engineOf is the engine name of a skipif/onlyif line (a trailing comment
// after '#' is dropped).
func engineOf(arg string) string {
	if c := strings.IndexByte(arg, '#'); c >= 0 {
		arg = arg[:c]
	}
	return strings.TrimSpace(arg)
}

func parseRecord(block []string, line int) (*Record, error) {
	r := &Record{Line: line}
	for len(block) > 0 {
		f := strings.Fields(block[0])
		if len(f) == 0 {
			break
		}
		switch f[0] {
		case "skipif":
			r.SkipIf = append(r.SkipIf, engineOf(strings.TrimPrefix(block[0], "skipif")))
		case "onlyif":
			r.OnlyIf = append(r.OnlyIf, engineOf(strings.TrimPrefix(block[0], "onlyif")))
		default:
			goto body
		}
		block = block[1:]
	}
body:
	if len(block) == 0 {
		return nil, nil
	}
	f := strings.Fields(block[0])
	switch f[0] {
	case "hash-threshold":
		return nil, nil
	case "halt":
		r.Kind = Halt
		return r, nil
	case "statement":
		r.Kind = Statement
		if len(f) < 2 || (f[1] != "ok" && f[1] != "error") {
			return nil, fmt.Errorf("line %d: bad statement line %q", line, block[0])
		}
		r.Error = f[1] == "error"
		r.SQL = strings.Join(block[1:], "\n")
		return r, nil
	case "query":
		r.Kind = Query
		if len(f) < 2 {
			return nil, fmt.Errorf("line %d: query without types", line)
		}
		r.Types, r.Sort = f[1], "nosort"
		if len(f) > 2 {
			r.Sort = f[2]
		}
		if len(f) > 3 {
			r.Label = f[3]
		}
		body := block[1:]
		sep := len(body)
		for k, l := range body {
			if l == "----" {
				sep = k
				break
			}
		}
		r.SQL = strings.Join(body[:sep], "\n")
		if sep < len(body) {
			r.HasQuery = true
			res := body[sep+1:]
			if len(res) == 1 && strings.Contains(res[0], " values hashing to ") {
				var n int
				var h string
				if _, err := fmt.Sscanf(res[0], "%d values hashing to %s", &n, &h); err != nil {
					return nil, fmt.Errorf("line %d: bad hash line %q", line, res[0])
				}
				r.Hashed, r.NValues, r.Hash = true, n, h
			} else {
				r.Values = res
			}
		}
		return r, nil
	}
	return nil, fmt.Errorf("line %d: unknown record %q", line, strconv.Quote(block[0]))
}
