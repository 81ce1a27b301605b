package server

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/go-mysql-org/go-mysql/client"
	"github.com/go-mysql-org/go-mysql/mysql"
)

// TestColumnTypes is the differential check of result column definitions:
// the scripts under testdata/server/coltypes run statements and print, per
// result column, what a client decodes by (type, length, decimals, flags,
// charset) and the first row's value. Their expected outputs are MariaDB
// 10.11's answers, recorded from it:
//
//	PLRUN_MARIADB=127.0.0.1:3415 go test ./server -run TestColumnTypes -rewrite
//
// (without -rewrite that checks the stored answers are still MariaDB's).
// Against plrun, a query whose answer still differs from MariaDB's is
// listed with plrun's answer in the script's .diffs file: the test fails
// when plrun's answer to any query changes, to MariaDB's (then the query
// leaves the list) or to anything else. PLRUN_COLTYPES_DIFFS=record
// rewrites the .diffs files from plrun's answers; review their diff. The
// test logs how many columns match.
//
// Commands:
//
//	exec       statements run for their effect (tables, rows)
//	coltypes   one SELECT per line; each prints a line per column:
//	           label: TYPE len=N dec=N flags=A|B cs=N value
func TestColumnTypes(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "server", "coltypes", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	mariadb := os.Getenv("PLRUN_MARIADB")
	if mariadb == "" && flag.Lookup("rewrite").Value.String() == "true" {
		t.Fatal("-rewrite records MariaDB's answers: set PLRUN_MARIADB=host:port")
	}
	record := os.Getenv("PLRUN_COLTYPES_DIFFS") == "record"
	var matched, total int
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".txt")
		t.Run(name, func(t *testing.T) {
			addr := mariadb
			if addr == "" {
				addr = startServer(t, Config{}, nil).addr
			}
			c := connectReference(t, addr, "coltypes_"+name)
			diffsPath := strings.TrimSuffix(f, ".txt") + ".diffs"
			known := readColTypeDiffs(t, diffsPath)
			var found []colTypeAnswer
			datadriven.RunTest(t, f, func(t *testing.T, d *datadriven.TestData) string {
				answers := runColTypes(t, c, d)
				if mariadb != "" || d.Cmd != "coltypes" {
					return joinAnswers(answers)
				}
				want := splitAnswers(d.Expected)
				for i, a := range answers {
					for _, line := range a.lines {
						total++
						if i < len(want) && slices.Contains(want[i].lines, line) {
							matched++
						}
					}
					if i >= len(want) || want[i].query != a.query || slices.Equal(want[i].lines, a.lines) {
						if _, ok := known[a.query]; ok && !record {
							t.Errorf("%s: plrun now answers as MariaDB does: take it off %s", a.query, diffsPath)
						}
						continue
					}
					found = append(found, a)
					if k, ok := known[a.query]; !ok && !record {
						t.Errorf("%s: plrun differs from MariaDB (expected is MariaDB's answer); if that is known, record it in %s", a.query, diffsPath)
					} else if ok && !record && !slices.Equal(k, a.lines) {
						t.Errorf("%s: plrun's answer changed from the one %s records:\n%s\nnow:\n%s",
							a.query, diffsPath, strings.Join(k, "\n"), strings.Join(a.lines, "\n"))
					}
					answers[i] = want[i] // reported above, not as a diff of the whole script
				}
				return joinAnswers(answers)
			})
			if record && mariadb == "" {
				writeColTypeDiffs(t, diffsPath, found)
			}
		})
	}
	if mariadb == "" {
		t.Logf("%d of %d result columns are described as MariaDB describes them", matched, total)
	}
}

// colTypeAnswer is one query and the lines that describe its columns.
type colTypeAnswer struct {
	query string
	lines []string
}

func joinAnswers(as []colTypeAnswer) string {
	var b strings.Builder
	for _, a := range as {
		b.WriteString(a.query + "\n")
		for _, l := range a.lines {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// splitAnswers reads back what joinAnswers wrote.
func splitAnswers(s string) []colTypeAnswer {
	var out []colTypeAnswer
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		switch {
		case l == "":
		case strings.HasPrefix(l, "  ") && len(out) > 0:
			out[len(out)-1].lines = append(out[len(out)-1].lines, l)
		default:
			out = append(out, colTypeAnswer{query: l})
		}
	}
	return out
}

func readColTypeDiffs(t *testing.T, path string) map[string][]string {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return map[string][]string{}
	}
	if err != nil {
		t.Fatal(err)
	}
	m := map[string][]string{}
	for _, a := range splitAnswers(string(b)) {
		if !strings.HasPrefix(a.query, "#") {
			m[a.query] = a.lines
		}
	}
	return m
}

func writeColTypeDiffs(t *testing.T, path string, found []colTypeAnswer) {
	if len(found) == 0 {
		_ = os.Remove(path)
		return
	}
	head := "# Queries whose result columns plrun describes differently from MariaDB\n" +
		"# (its answer is the .txt file's expected output), with plrun's answer.\n"
	if err := os.WriteFile(path, []byte(head+joinAnswers(found)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// connectColTypes connects with utf8mb4_general_ci, the collation MariaDB
// reports string results in (go-mysql's default, utf8mb4_0900_ai_ci, is
// MySQL 8's and unknown to MariaDB).
func connectColTypes(t *testing.T, addr, db string) *client.Conn {
	t.Helper()
	c, err := client.Connect(addr, "root", "root", db, func(c *client.Conn) error {
		return c.SetCollation("utf8mb4_general_ci")
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// connectReference opens a fresh database db on the reference MariaDB.
func connectReference(t *testing.T, addr, db string) *client.Conn {
	c := connectColTypes(t, addr, "")
	for _, q := range []string{"DROP DATABASE IF EXISTS " + db, "CREATE DATABASE " + db, "USE " + db} {
		if _, err := c.Execute(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return c
}

func runColTypes(t *testing.T, c *client.Conn, d *datadriven.TestData) []colTypeAnswer {
	var out []colTypeAnswer
	for _, q := range strings.Split(d.Input, "\n") {
		q = strings.TrimSpace(q)
		if q == "" || strings.HasPrefix(q, "#") {
			continue
		}
		r, err := c.Execute(q)
		switch d.Cmd {
		case "exec":
			if err != nil {
				out = append(out, colTypeAnswer{query: fmt.Sprintf("%s: %v", q, err)})
			}
		case "coltypes":
			a := colTypeAnswer{query: q}
			if err != nil {
				a.lines = []string{"  error: " + err.Error()}
			} else {
				for i, f := range r.Fields {
					a.lines = append(a.lines, "  "+describeField(f, firstColValue(r, i)))
				}
				r.Close()
			}
			out = append(out, a)
		default:
			t.Fatalf("unknown command %s", d.Cmd)
		}
	}
	return out
}

func firstColValue(r *mysql.Result, col int) string {
	if r.Resultset == nil || len(r.Values) == 0 {
		return "-"
	}
	v := r.Values[0][col]
	if v.Type == mysql.FieldValueTypeNull {
		return "NULL"
	}
	return fmt.Sprintf("%q", v.String())
}

var fieldTypeNames = map[uint8]string{
	mysql.MYSQL_TYPE_DECIMAL: "DECIMAL", mysql.MYSQL_TYPE_TINY: "TINY", mysql.MYSQL_TYPE_SHORT: "SHORT",
	mysql.MYSQL_TYPE_LONG: "LONG", mysql.MYSQL_TYPE_FLOAT: "FLOAT", mysql.MYSQL_TYPE_DOUBLE: "DOUBLE",
	mysql.MYSQL_TYPE_NULL: "NULL", mysql.MYSQL_TYPE_TIMESTAMP: "TIMESTAMP", mysql.MYSQL_TYPE_LONGLONG: "LONGLONG",
	mysql.MYSQL_TYPE_INT24: "INT24", mysql.MYSQL_TYPE_DATE: "DATE", mysql.MYSQL_TYPE_TIME: "TIME",
	mysql.MYSQL_TYPE_DATETIME: "DATETIME", mysql.MYSQL_TYPE_YEAR: "YEAR", mysql.MYSQL_TYPE_NEWDATE: "NEWDATE",
	mysql.MYSQL_TYPE_VARCHAR: "VARCHAR", mysql.MYSQL_TYPE_BIT: "BIT", mysql.MYSQL_TYPE_JSON: "JSON",
	mysql.MYSQL_TYPE_NEWDECIMAL: "NEWDECIMAL", mysql.MYSQL_TYPE_ENUM: "ENUM", mysql.MYSQL_TYPE_SET: "SET",
	mysql.MYSQL_TYPE_TINY_BLOB: "TINY_BLOB", mysql.MYSQL_TYPE_MEDIUM_BLOB: "MEDIUM_BLOB",
	mysql.MYSQL_TYPE_LONG_BLOB: "LONG_BLOB", mysql.MYSQL_TYPE_BLOB: "BLOB", mysql.MYSQL_TYPE_VAR_STRING: "VAR_STRING",
	mysql.MYSQL_TYPE_STRING: "STRING", mysql.MYSQL_TYPE_GEOMETRY: "GEOMETRY",
}

// fieldFlagNames are the column definition flags, in bit order.
var fieldFlagNames = []struct {
	bit  uint16
	name string
}{
	{mysql.NOT_NULL_FLAG, "NOT_NULL"}, {mysql.PRI_KEY_FLAG, "PRI_KEY"}, {mysql.UNIQUE_KEY_FLAG, "UNIQUE_KEY"},
	{8, "MULTIPLE_KEY"}, {mysql.BLOB_FLAG, "BLOB"}, {mysql.UNSIGNED_FLAG, "UNSIGNED"},
	{mysql.ZEROFILL_FLAG, "ZEROFILL"}, {mysql.BINARY_FLAG, "BINARY"}, {mysql.ENUM_FLAG, "ENUM"},
	{mysql.AUTO_INCREMENT_FLAG, "AUTO_INCREMENT"}, {mysql.TIMESTAMP_FLAG, "TIMESTAMP"}, {mysql.SET_FLAG, "SET"},
	{4096, "NO_DEFAULT_VALUE"}, {8192, "ON_UPDATE_NOW"},
	{mysql.PART_KEY_FLAG, "PART_KEY"}, {mysql.NUM_FLAG, "NUM"},
}

func describeField(f *mysql.Field, value string) string {
	typ, ok := fieldTypeNames[f.Type]
	if !ok {
		typ = fmt.Sprintf("type%d", f.Type)
	}
	var flags []string
	for _, fl := range fieldFlagNames {
		if f.Flag&fl.bit != 0 {
			flags = append(flags, fl.name)
		}
	}
	fs := strings.Join(flags, "|")
	if fs == "" {
		fs = "-"
	}
	return fmt.Sprintf("%s: %s len=%d dec=%d flags=%s cs=%d %s", f.Name, typ, f.ColumnLength, f.Decimal, fs, f.Charset, value)
}

// TestColumnTypesWideValues: a computed integer column goes as BIGINT in
// the binary protocol when a value passes the INT its description chose,
// not cut to 32 bits: ORD is INT(7) as in MariaDB, but ORD of a 4-byte
// character is 4036991104. And i + i over INT(1) is sized by INT's digits,
// not the display width.
func TestColumnTypesWideValues(t *testing.T) {
	ts := startServer(t, Config{}, nil)
	db := ts.open(t)
	mustExec(t, db, "CREATE TABLE w (id INT PRIMARY KEY, i INT(1), u INT(1) UNSIGNED, s VARCHAR(4))")
	mustExec(t, db, "INSERT INTO w VALUES (1, 2000000000, 4000000000, '\U0001F600')")
	var sum, usum, small, ord int64
	// An argument makes go-sql-driver prepare: rows come in the binary protocol.
	if err := db.QueryRow("SELECT i + i, u + u, i - i, ORD(s) FROM w WHERE id = ?", 1).Scan(&sum, &usum, &small, &ord); err != nil {
		t.Fatal(err)
	}
	if sum != 4000000000 || usum != 8000000000 || small != 0 || ord != 4036991104 {
		t.Fatalf("i+i, u+u, i-i, ORD(s) = %d, %d, %d, %d; want 4000000000, 8000000000, 0, 4036991104", sum, usum, small, ord)
	}
}
