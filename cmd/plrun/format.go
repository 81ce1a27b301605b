package main

import (
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/plrun/plrun/sql"
	"github.com/plrun/plrun/types"
)

// printer shows one statement's result.
type printer interface {
	print(stmt string, res *sql.Result, elapsed time.Duration, vertical bool)
}

// batchPrinter prints like `mysql --batch`: a result set as a header line
// and rows, tab-separated, with \t \n \\ and NUL escaped; an empty result
// set and an OK print nothing.
type batchPrinter struct{ w io.Writer }

func (p batchPrinter) print(_ string, res *sql.Result, _ time.Duration, _ bool) {
	if !res.IsResultSet() || len(res.Rows) == 0 {
		return
	}
	var b strings.Builder
	for i, c := range res.Columns {
		if i > 0 {
			b.WriteByte('\t')
		}
		b.WriteString(batchEscape(c.Name))
	}
	b.WriteByte('\n')
	for _, row := range res.Rows {
		for i, v := range row {
			if i > 0 {
				b.WriteByte('\t')
			}
			b.WriteString(batchEscape(v.String()))
		}
		b.WriteByte('\n')
	}
	io.WriteString(p.w, b.String())
}

var batchEscaper = strings.NewReplacer("\\", `\\`, "\t", `\t`, "\n", `\n`, "\x00", `\0`)

func batchEscape(s string) string { return batchEscaper.Replace(s) }

// tablePrinter prints like the interactive mysql client.
type tablePrinter struct{ w io.Writer }

func (p *tablePrinter) print(stmt string, res *sql.Result, elapsed time.Duration, vertical bool) {
	var b strings.Builder
	switch {
	case !res.IsResultSet():
		writeOK(&b, stmt, res, elapsed)
	case len(res.Rows) == 0:
		fmt.Fprintf(&b, "Empty set%s (%s)\n", warnings(res.Warnings), seconds(elapsed))
	default:
		if vertical {
			writeVertical(&b, res)
		} else {
			writeTable(&b, res)
		}
		rows := "rows"
		if len(res.Rows) == 1 {
			rows = "row"
		}
		fmt.Fprintf(&b, "%d %s in set%s (%s)\n", len(res.Rows), rows, warnings(res.Warnings), seconds(elapsed))
	}
	b.WriteByte('\n')
	io.WriteString(p.w, b.String())
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

// writeTable draws the boxed table; numbers are right-aligned as mysql does.
func writeTable(b *strings.Builder, res *sql.Result) {
	widths := make([]int, len(res.Columns))
	for i, c := range res.Columns {
		widths[i] = utf8.RuneCountInString(c.Name)
	}
	cells := make([][]string, len(res.Rows))
	for r, row := range res.Rows {
		cells[r] = make([]string, len(res.Columns))
		for i := range res.Columns {
			s := "NULL"
			if i < len(row) {
				s = displayCell(row[i].String())
			}
			cells[r][i] = s
			widths[i] = max(widths[i], utf8.RuneCountInString(s))
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
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(s))
			if right(i) {
				fmt.Fprintf(b, "| %s%s ", pad, s)
			} else {
				fmt.Fprintf(b, "| %s%s ", s, pad)
			}
		}
		b.WriteString("|\n")
	}
	names := make([]string, len(res.Columns))
	for i, c := range res.Columns {
		names[i] = c.Name
	}
	border()
	line(names, func(int) bool { return false })
	border()
	for _, row := range cells {
		line(row, func(i int) bool { return isNumeric(res.Columns[i].Type) })
	}
	border()
}

// writeVertical prints each row as "name: value" lines (\G).
func writeVertical(b *strings.Builder, res *sql.Result) {
	width := 0
	for _, c := range res.Columns {
		width = max(width, utf8.RuneCountInString(c.Name))
	}
	for r, row := range res.Rows {
		fmt.Fprintf(b, "*************************** %d. row ***************************\n", r+1)
		for i, c := range res.Columns {
			v := "NULL"
			if i < len(row) {
				v = row[i].String()
			}
			fmt.Fprintf(b, "%*s: %s\n", width, c.Name, v)
		}
	}
}

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
