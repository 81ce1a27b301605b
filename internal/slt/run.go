package slt

import (
	"crypto/md5"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Cell is one value as the engine's text protocol gives it.
type Cell struct {
	S    string
	Null bool
}

// DB is the engine under test.
type DB interface {
	Exec(sql string) error
	Query(sql string) ([][]Cell, error)
}

// Outcome is what happened to one record.
type Outcome struct {
	Record *Record
	Err    string // "" when it passed
}

// Stats counts a file's records.
type Stats struct {
	Run, Passed, Skipped int
	Failures             []Outcome
}

// RunFile runs records in order as engine (e.g. "mysql") until halt.
func RunFile(db DB, engine string, records []*Record) Stats {
	var st Stats
	for _, r := range records {
		if !r.For(engine) {
			st.Skipped++
			continue
		}
		if r.Kind == Halt {
			break
		}
		st.Run++
		if msg := runRecord(db, r); msg != "" {
			st.Failures = append(st.Failures, Outcome{Record: r, Err: msg})
		} else {
			st.Passed++
		}
	}
	return st
}

func runRecord(db DB, r *Record) string {
	if r.Kind == Statement {
		err := db.Exec(r.SQL)
		switch {
		case r.Error && err == nil:
			return "statement succeeded, error expected"
		case !r.Error && err != nil:
			return "statement failed: " + err.Error()
		}
		return ""
	}
	rows, err := db.Query(r.SQL)
	if err != nil {
		return "query failed: " + err.Error()
	}
	if !r.HasQuery {
		return ""
	}
	got, err := Format(rows, r.Types, r.Sort)
	if err != nil {
		return err.Error()
	}
	if r.Hashed {
		if len(got) != r.NValues || Hash(got) != r.Hash {
			return fmt.Sprintf("got %d values hashing to %s, want %d values hashing to %s", len(got), Hash(got), r.NValues, r.Hash)
		}
		return ""
	}
	if strings.Join(got, "\n") != strings.Join(r.Values, "\n") {
		return fmt.Sprintf("got %q, want %q", clip(got), clip(r.Values))
	}
	return ""
}

func clip(v []string) []string {
	if len(v) > 12 {
		return append(v[:12:12], "...")
	}
	return v
}

// Format turns rows into the corpus's values: one string per value, NULL
// as "NULL", an empty string as "(empty)", integers as integers, reals
// with three decimals, then sorted as the record asks.
func Format(rows [][]Cell, typ, sortMode string) ([]string, error) {
	out := make([][]string, len(rows))
	for i, row := range rows {
		if len(row) != len(typ) {
			return nil, fmt.Errorf("got %d columns, want %d", len(row), len(typ))
		}
		out[i] = make([]string, len(row))
		for j, c := range row {
			out[i][j] = formatCell(c, typ[j])
		}
	}
	if sortMode == "rowsort" {
		// Rows that compare equal are equal: no need for a stable sort.
		slices.SortFunc(out, func(a, b []string) int { return slices.Compare(a, b) })
	}
	flat := make([]string, 0, len(out)*len(typ))
	for _, row := range out {
		flat = append(flat, row...)
	}
	if sortMode == "valuesort" {
		slices.Sort(flat)
	}
	return flat, nil
}

func formatCell(c Cell, t byte) string {
	if c.Null {
		return "NULL"
	}
	switch t {
	case 'I':
		if n, err := strconv.ParseInt(c.S, 10, 64); err == nil {
			return strconv.FormatInt(n, 10)
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(c.S), 64)
		if err != nil {
			return "0" // text in an integer column reads as 0, as sqllogictest's own engines do
		}
		return strconv.FormatInt(int64(math.Trunc(f)), 10)
	case 'R':
		f, err := strconv.ParseFloat(strings.TrimSpace(c.S), 64)
		if err != nil {
			f = 0
		}
		return fmt.Sprintf("%.3f", f)
	}
	if c.S == "" {
		return "(empty)"
	}
	b := []byte(c.S)
	for i, ch := range b {
		if ch < 0x20 || ch > 0x7e {
			b[i] = '@'
		}
	}
	return string(b)
}

// Hash is the corpus's MD5 of values, each followed by a newline.
func Hash(values []string) string {
	h := md5.New()
	for _, v := range values {
		h.Write([]byte(v))
		h.Write([]byte("\n"))
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}
