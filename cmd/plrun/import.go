package main

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/plrun/plrun/sql"
)

// importBatch is how many rows one INSERT of .import carries.
const importBatch = 500

// importCSV is sqlite3's .import FILE TABLE: every record of a CSV file
// becomes a row of an existing table, in one transaction (all rows or
// none). A first record that names the table's columns is a header and is
// skipped; an unquoted \N is NULL, as in MySQL's LOAD DATA.
func (sh *shell) importCSV(ctx context.Context, arg string, lineNo int) bool {
	fields := strings.Fields(arg)
	if len(fields) != 2 {
		sh.printMessage("usage: .import FILE TABLE")
		return false
	}
	path, table := fields[0], strings.Trim(fields[1], "`")
	f, err := os.Open(path)
	if err != nil {
		sh.printMessage(fmt.Sprintf("ERROR: cannot open '%s': %v", path, err))
		return false
	}
	defer f.Close()
	start := time.Now()
	quoted := "`" + strings.ReplaceAll(table, "`", "``") + "`"
	cols, err := sh.sess.Query(ctx, "SELECT * FROM "+quoted+" LIMIT 0")
	if err != nil {
		sh.printError(err, lineNo)
		return false
	}
	r := csv.NewReader(f)
	r.FieldsPerRecord = len(cols.Columns)
	r.ReuseRecord = false
	if _, err := sh.sess.Exec(ctx, "BEGIN"); err != nil {
		sh.printError(err, lineNo)
		return false
	}
	n, err := sh.insertRecords(ctx, r, quoted, cols.Columns)
	if err == nil {
		_, err = sh.sess.Exec(ctx, "COMMIT")
	}
	if err != nil {
		_, _ = sh.sess.Exec(context.Background(), "ROLLBACK")
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			sh.printMessage(fmt.Sprintf("ERROR: %s: %v (nothing imported)", path, pe))
		} else {
			sh.printError(err, lineNo)
		}
		return false
	}
	sh.out.echo(fmt.Sprintf("Imported %d rows into %s (%s)\n\n", n, table, seconds(time.Since(start))))
	return true
}

// insertRecords inserts the CSV records in batches of importBatch rows and
// returns how many it inserted.
func (sh *shell) insertRecords(ctx context.Context, r *csv.Reader, table string, columns []sql.Column) (int, error) {
	row := "(" + strings.TrimSuffix(strings.Repeat("?,", len(columns)), ",") + ")"
	var args []any
	rows, n, first := 0, 0, true
	flush := func() error {
		if rows == 0 {
			return nil
		}
		q := "INSERT INTO " + table + " VALUES " + strings.TrimSuffix(strings.Repeat(row+",", rows), ",")
		if _, err := sh.sess.Exec(ctx, q, args...); err != nil {
			return fmt.Errorf("record %d: %w", n-rows+1, err)
		}
		rows, args = 0, args[:0]
		return nil
	}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return n, flush()
		}
		if err != nil {
			return n, err
		}
		if first && isHeader(rec, columns) {
			first = false
			continue
		}
		first = false
		for _, v := range rec {
			if v == `\N` {
				args = append(args, nil)
			} else {
				args = append(args, v)
			}
		}
		rows++
		n++
		if rows == importBatch {
			if err := flush(); err != nil {
				return n, err
			}
		}
	}
}

// isHeader reports whether a record names the table's columns.
func isHeader(rec []string, columns []sql.Column) bool {
	for i, c := range columns {
		if i >= len(rec) || !strings.EqualFold(strings.TrimSpace(rec[i]), c.Name) {
			return false
		}
	}
	return true
}
