package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/plrun/plrun/sql"

	"github.com/mattn/go-runewidth"

	"github.com/plrun/plrun/types"
)

// printer renders one statement's result as the mysql client would, in
// one of the output formats (--format, -t, -E, -s, -N).
type printer struct {
	format      string // table, tsv, csv, json, vertical
	interactive bool   // REPL: OK lines, row counts and timings
	skipNames   bool   // -N
}

func (p *printer) render(stmt string, res *sql.Result, elapsed time.Duration, vertical bool) string {
	if len(res.Sets) > 0 {
		// A CALL's result sets, one after another, then its OK, as the
		// mysql client prints them.
		var b strings.Builder
		for _, set := range res.Sets {
			b.WriteString(p.render(stmt, set, elapsed, vertical))
		}
		ok := *res
		ok.Sets = nil
		b.WriteString(p.render(stmt, &ok, elapsed, vertical))
		return b.String()
	}
	var b strings.Builder
	format := p.format
	if vertical {
		format = "vertical"
	}
	if !res.IsResultSet() {
		if p.interactive {
			writeOK(&b, stmt, res, elapsed)
			b.WriteByte('\n')
		}
		return b.String()
	}
	if len(res.Rows) == 0 {
		if p.interactive {
			fmt.Fprintf(&b, "Empty set%s (%s)\n\n", warnings(res.Warnings), seconds(elapsed))
		} else if format == "json" {
			b.WriteString("[]\n")
		}
		return b.String()
	}
	switch format {
	case "table":
		writeTable(&b, res, p.skipNames)
	case "vertical":
		writeVertical(&b, res)
	case "csv":
		writeCSV(&b, res, p.skipNames)
	case "json":
		writeJSON(&b, res)
	default:
		writeTSV(&b, res, p.skipNames)
	}
	if p.interactive {
		rows := "rows"
		if len(res.Rows) == 1 {
			rows = "row"
		}
		fmt.Fprintf(&b, "%d %s in set%s (%s)\n\n", len(res.Rows), rows, warnings(res.Warnings), seconds(elapsed))
	}
	return b.String()
}

func writeOK(b *strings.Builder, stmt string, res *sql.Result, elapsed time.Duration) {
	if word, _ := commandWord(stmt); word == "use" {
		b.WriteString("Database changed\n")
		return
	}
	rows := "rows"
	if res.AffectedRows == 1 {
		rows = "row"
	}
	fmt.Fprintf(b, "Query OK, %d %s affected%s (%s)\n", res.AffectedRows, rows, warnings(res.Warnings), seconds(elapsed))
	if res.Info != "" {
		b.WriteString(res.Info)
		b.WriteByte('\n')
	}
}

func warnings(n uint16) string {
	switch n {
	case 0:
		return ""
	case 1:
		return ", 1 warning"
	}
	return fmt.Sprintf(", %d warnings", n)
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.2f sec", d.Seconds()) }

// cellText is a value as the client prints it; NULL for SQL NULL.
func cellText(row []types.Value, i int) string {
	if i >= len(row) || row[i].IsNull() {
		return "NULL"
	}
	return row[i].String()
}

// displayWidth is the number of terminal columns s takes: CJK and other
// wide characters take two, combining marks none.
func displayWidth(s string) int { return runewidth.StringWidth(s) }

// writeTable draws the boxed table; numbers are right-aligned as mysql does.
func writeTable(b *strings.Builder, res *sql.Result, skipNames bool) {
	widths := make([]int, len(res.Columns))
	if !skipNames {
		for i, c := range res.Columns {
			widths[i] = displayWidth(c.Name)
		}
	}
	cells := make([][]string, len(res.Rows))
	for r, row := range res.Rows {
		cells[r] = make([]string, len(res.Columns))
		for i := range res.Columns {
			s := displayCell(cellText(row, i))
			cells[r][i] = s
			widths[i] = max(widths[i], displayWidth(s))
		}
	}
	border := func() {
		for _, w := range widths {
			b.WriteByte('+')
			b.WriteString(strings.Repeat("-", w+2))
		}
		b.WriteString("+\n")
	}
	line := func(vals []string, right func(int) bool) {
		for i, s := range vals {
			pad := strings.Repeat(" ", widths[i]-displayWidth(s))
			if right(i) {
				fmt.Fprintf(b, "| %s%s ", pad, s)
			} else {
				fmt.Fprintf(b, "| %s%s ", s, pad)
			}
		}
		b.WriteString("|\n")
	}
	border()
	if !skipNames {
		names := make([]string, len(res.Columns))
		for i, c := range res.Columns {
			names[i] = c.Name
		}
		line(names, func(int) bool { return false })
		border()
	}
	for _, row := range cells {
		line(row, func(i int) bool { return isNumeric(res.Columns[i].Type) })
	}
	border()
}

// writeVertical prints each row as "name: value" lines (\G).
func writeVertical(b *strings.Builder, res *sql.Result) {
	width := 0
	for _, c := range res.Columns {
		width = max(width, displayWidth(c.Name))
	}
	for r, row := range res.Rows {
		fmt.Fprintf(b, "*************************** %d. row ***************************\n", r+1)
		for i, c := range res.Columns {
			fmt.Fprintf(b, "%s%s: %s\n", strings.Repeat(" ", width-displayWidth(c.Name)), c.Name, cellText(row, i))
		}
	}
}

// writeTSV prints like `mysql --batch`: a header line and rows,
// tab-separated, with \t \n \\ and NUL escaped.
func writeTSV(b *strings.Builder, res *sql.Result, skipNames bool) {
	if !skipNames {
		for i, c := range res.Columns {
			if i > 0 {
				b.WriteByte('\t')
			}
			b.WriteString(batchEscape(c.Name))
		}
		b.WriteByte('\n')
	}
	for _, row := range res.Rows {
		for i := range res.Columns {
			if i > 0 {
				b.WriteByte('\t')
			}
			b.WriteString(batchEscape(cellText(row, i)))
		}
		b.WriteByte('\n')
	}
}

// writeCSV prints RFC 4180 CSV with a header line; NULL is an empty,
// unquoted field, as sqlite3's csv mode prints it.
func writeCSV(b *strings.Builder, res *sql.Result, skipNames bool) {
	w := csv.NewWriter(b)
	if !skipNames {
		names := make([]string, len(res.Columns))
		for i, c := range res.Columns {
			names[i] = c.Name
		}
		_ = w.Write(names)
	}
	rec := make([]string, len(res.Columns))
	for _, row := range res.Rows {
		for i := range res.Columns {
			rec[i] = ""
			if i < len(row) && !row[i].IsNull() {
				rec[i] = row[i].String()
			}
		}
		_ = w.Write(rec)
	}
	w.Flush()
}

// writeJSON prints a result set as a JSON array of objects, one row a
// line: numbers as numbers (DECIMAL keeps its exact digits), NULL as null.
func writeJSON(b *strings.Builder, res *sql.Result) {
	b.WriteByte('[')
	for r, row := range res.Rows {
		if r > 0 {
			b.WriteString(",\n")
		}
		b.WriteByte('{')
		for i, c := range res.Columns {
			if i > 0 {
				b.WriteByte(',')
			}
			name, _ := json.Marshal(c.Name)
			b.Write(name)
			b.WriteByte(':')
			b.WriteString(jsonValue(row, i, c.Type))
		}
		b.WriteByte('}')
	}
	b.WriteString("]\n")
}

func jsonValue(row []types.Value, i int, t types.ColType) string {
	if i >= len(row) || row[i].IsNull() {
		return "null"
	}
	s := row[i].String()
	if isNumeric(t) {
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			return s
		}
	}
	q, _ := json.Marshal(s)
	return string(q)
}

var batchEscaper = strings.NewReplacer("\\", `\\`, "\t", `\t`, "\n", `\n`, "\x00", `\0`)

func batchEscape(s string) string { return batchEscaper.Replace(s) }

// displayCell escapes newlines and tabs so a value stays on its row:
// printed raw (as mysql does) they break the box.
func displayCell(s string) string {
	if strings.ContainsAny(s, "\n\t\r") {
		return strings.NewReplacer("\n", `\n`, "\t", `\t`, "\r", `\r`).Replace(s)
	}
	return s
}

func isNumeric(t types.ColType) bool {
	switch t.Base {
	case types.TDecimal, types.TFloat, types.TDouble:
		return true
	}
	return t.IsInteger()
}
