package server

import (
	"fmt"
	"os"
	"path/filepath"
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
// 10.11's answers.
//
// With PLRUN_MARIADB=host:port the same scripts run against that MariaDB
// instead of plrun: without -rewrite this checks the stored answers are
// still MariaDB's, with -rewrite it records them (review the diff).
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
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txt"), func(t *testing.T) {
			name := strings.TrimSuffix(filepath.Base(f), ".txt")
			addr := mariadb
			if addr == "" {
				addr = startServer(t, Config{}, nil).addr
			}
			c := connectReference(t, addr, "coltypes_"+name)
			datadriven.RunTest(t, f, func(t *testing.T, d *datadriven.TestData) string {
				return runColTypes(t, c, d)
			})
		})
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

func runColTypes(t *testing.T, c *client.Conn, d *datadriven.TestData) string {
	var out strings.Builder
	for _, q := range strings.Split(d.Input, "\n") {
		q = strings.TrimSpace(q)
		if q == "" || strings.HasPrefix(q, "#") {
			continue
		}
		r, err := c.Execute(q)
		switch d.Cmd {
		case "exec":
			if err != nil {
				fmt.Fprintf(&out, "%s: %v\n", q, err)
			}
		case "coltypes":
			if err != nil {
				fmt.Fprintf(&out, "%s\n  error: %v\n", q, err)
				continue
			}
			fmt.Fprintf(&out, "%s\n", q)
			for i, f := range r.Fields {
				fmt.Fprintf(&out, "  %s\n", describeField(f, firstColValue(r, i)))
			}
			r.Close()
		default:
			t.Fatalf("unknown command %s", d.Cmd)
		}
	}
	return out.String()
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
