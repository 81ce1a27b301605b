package server

import (
	"bytes"
	"fmt"
	"testing"
)

// Byte strings, TEXT sizes, ENUM and SET through the wire: every byte
// (NUL, invalid UTF-8, 0xff) comes back exactly by the text protocol and
// the binary one (a prepared statement's parameters and rows), and the
// column definitions carry what MariaDB 10.11 sends, as go-sql-driver
// reads them (charset 63 makes BINARY/VARBINARY/BLOB, ENUM_FLAG ENUM);
// a BIT(10) is its two bytes, big-endian.
func TestByteStringsOverTheWire(t *testing.T) {
	ts := startServer(t, Config{}, nil)
	db := ts.open(t)
	mustExec(t, db, "CREATE TABLE raw (id INT PRIMARY KEY, bn BINARY(4), vb VARBINARY(8), bl BLOB, tt TINYTEXT, e ENUM('a','bcd') NOT NULL, s SET('x','yy'), bt BIT(10))")
	payload := []byte{0x00, 0xff, 0xc3, 0x28, 'A', 0x00}
	mustExec(t, db, "INSERT INTO raw VALUES (1, 0x41, 0x00ff, x'00ffc32841', 'tt', 'bcd', 'yy,x', b'1000000001')")
	mustExec(t, db, "INSERT INTO raw VALUES (?, ?, ?, ?, ?, ?, ?, ?)", 2, []byte{0xff}, payload, payload, "t", 1, 3, 5)

	want := map[int][]string{
		1: {"A\x00\x00\x00", "\x00\xff", "\x00\xff\xc3(A", "tt", "bcd", "x,yy", "\x02\x01"},
		2: {"\xff\x00\x00\x00", string(payload), string(payload), "t", "a", "x,yy", "\x00\x05"},
	}
	for _, prepared := range []bool{false, true} {
		for id, w := range want {
			q := fmt.Sprintf("SELECT bn, vb, bl, tt, e, s, bt FROM raw WHERE id = %d", id)
			var args []any
			if prepared {
				q, args = "SELECT bn, vb, bl, tt, e, s, bt FROM raw WHERE id = ?", []any{id}
			}
			got := make([][]byte, 7)
			ptrs := make([]any, 7)
			for i := range got {
				ptrs[i] = &got[i]
			}
			if err := db.QueryRow(q, args...).Scan(ptrs...); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			for i := range w {
				if !bytes.Equal(got[i], []byte(w[i])) {
					t.Errorf("prepared=%v id %d column %d: %q, want %q", prepared, id, i, got[i], w[i])
				}
			}
		}
	}
	// A byte-string parameter compares byte for byte.
	var n int
	if err := db.QueryRow("SELECT COUNT(*) FROM raw WHERE vb = ?", payload).Scan(&n); err != nil || n != 1 {
		t.Errorf("vb = payload: %d rows (%v), want 1", n, err)
	}
	if err := db.QueryRow("SELECT COUNT(*) FROM raw WHERE vb = ?", []byte{0x00, 0xFF, 0xC3, 0x28, 'a', 0x00}).Scan(&n); err != nil || n != 0 {
		t.Errorf("vb = other case: %d rows (%v), want 0", n, err)
	}

	rows, err := db.Query("SELECT bn, vb, bl, tt, e, s, bt FROM raw")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cts, err := rows.ColumnTypes()
	if err != nil {
		t.Fatal(err)
	}
	// As MariaDB 10.11 describes them (its lengths: BINARY(4) 4,
	// VARBINARY(8) 8, BLOB 65535, TINYTEXT 1020).
	wantTypes := []struct {
		name   string
		length int64
	}{{"BINARY", 4}, {"VARBINARY", 8}, {"BLOB", 65535}, {"TEXT", 1020}, {"ENUM", 12}, {"SET", 16}, {"BIT", 0}}
	for i, ct := range cts {
		if ct.DatabaseTypeName() != wantTypes[i].name {
			t.Errorf("column %s: type %s, want %s", ct.Name(), ct.DatabaseTypeName(), wantTypes[i].name)
		}
		if l, ok := ct.Length(); ok && l != wantTypes[i].length {
			t.Errorf("column %s: length %d, want %d", ct.Name(), l, wantTypes[i].length)
		}
	}
}
