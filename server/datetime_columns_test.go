package server

import (
	"context"
	gosql "database/sql"
	"testing"

	"github.com/go-mysql-org/go-mysql/mysql"
	"github.com/plrun/plrun/sql"
	"github.com/plrun/plrun/types"
)

// DATE, DATETIME(n), TIME(n), TIMESTAMP(n) and YEAR columns read the same
// through the text protocol and, for prepared statements, the binary one,
// as go-sql-driver decodes MariaDB 10.11's (fractions to the column's
// digits, negative and long TIMEs; YEAR is a number to the driver in
// both, so 0000 reads as 0), and a TIMESTAMP follows the session's
// time_zone in both. The same code against MariaDB reads the same.
func TestDatetimeColumnsBothProtocols(t *testing.T) {
	ts := startServer(t, Config{}, nil)
	db := ts.open(t)
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, q := range []string{
		"SET time_zone = '+00:00'",
		"CREATE TABLE dtc (id INT PRIMARY KEY, d DATE, dt DATETIME, dt3 DATETIME(3), t TIME, t2 TIME(2), ts TIMESTAMP(3) NULL, y YEAR)",
		"INSERT INTO dtc VALUES (1, '2026-01-02', '2026-01-02 03:04:05', '2026-01-02 03:04:05.12', '-26:03:04', '100:00:00.5', '2026-01-02 03:04:05.1', 0)",
		"INSERT INTO dtc VALUES (2, '2026-01-02', '2026-01-02 00:00:00', '2026-01-02 00:00:00', '00:00:00', '-00:00:00.25', '2026-01-02 00:00:00', 2024)",
		"SET time_zone = '+05:30'",
	} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	want := map[int64][2][]string{ // id: text protocol, binary protocol
		1: {
			{"2026-01-02", "2026-01-02 03:04:05", "2026-01-02 03:04:05.120", "-26:03:04", "100:00:00.50", "2026-01-02 08:34:05.100", "0"},
			{"2026-01-02", "2026-01-02 03:04:05", "2026-01-02 03:04:05.120", "-26:03:04", "100:00:00.50", "2026-01-02 08:34:05.100", "0"},
		},
		2: {
			{"2026-01-02", "2026-01-02 00:00:00", "2026-01-02 00:00:00.000", "00:00:00", "-00:00:00.25", "2026-01-02 05:30:00.000", "2024"},
			{"2026-01-02", "2026-01-02 00:00:00", "2026-01-02 00:00:00.000", "00:00:00", "-00:00:00.25", "2026-01-02 05:30:00.000", "2024"},
		},
	}
	read := func(rows *gosql.Rows, err error, proto int) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			got := make([]string, 7)
			dest := []any{&id}
			for i := range got {
				dest = append(dest, &got[i])
			}
			if err := rows.Scan(dest...); err != nil {
				t.Fatal(err)
			}
			for i, w := range want[id][proto] {
				if got[i] != w {
					t.Errorf("protocol %d, row %d, column %d: got %q, want %q", proto, id, i+1, got[i], w)
				}
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
	}
	const q = "SELECT id, d, dt, dt3, t, t2, ts, y FROM dtc WHERE id > ? ORDER BY id"
	rows, err := conn.QueryContext(ctx, "SELECT id, d, dt, dt3, t, t2, ts, y FROM dtc WHERE id > 0 ORDER BY id")
	read(rows, err, 0)
	rows, err = conn.QueryContext(ctx, q, 0) // a prepared statement: the binary protocol
	read(rows, err, 1)
	// the fields as MariaDB describes them
	for _, c := range []struct {
		t     types.ColType
		typ   uint8
		len   uint32
		flags uint16
	}{
		{types.ColType{Base: types.TTimestamp, Scale: 3}, mysql.MYSQL_TYPE_TIMESTAMP, 23, mysql.BINARY_FLAG | mysql.UNSIGNED_FLAG},
		{types.ColType{Base: types.TTime, Scale: 2}, mysql.MYSQL_TYPE_TIME, 13, mysql.BINARY_FLAG},
		{types.ColType{Base: types.TYear}, mysql.MYSQL_TYPE_YEAR, 4, mysql.UNSIGNED_FLAG | mysql.ZEROFILL_FLAG},
	} {
		f := field(sql.Column{Name: "c", Type: c.t})
		if f.Type != c.typ || f.ColumnLength != c.len || f.Flag != c.flags {
			t.Errorf("%s: type %d length %d flags %d", c.t.SQL(), f.Type, f.ColumnLength, f.Flag)
		}
	}
}
