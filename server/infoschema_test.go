package server

import (
	"testing"
	"time"
)

// TestInformationSchemaOverTheWire: information_schema through the
// protocol, as a driver reads it: a prepared SELECT with ? (the plan is
// rebuilt per execution, so a second execution sees the new row), typed
// columns (BIGINT UNSIGNED, DATETIME), and 1044 for a write.
func TestInformationSchemaOverTheWire(t *testing.T) {
	ts := startServer(t, Config{}, nil)
	db := ts.open(t, "parseTime=true")
	mustExec(t, db, "CREATE TABLE wire (id int PRIMARY KEY AUTO_INCREMENT, v varchar(10))")
	stmt, err := db.Prepare("SELECT TABLE_ROWS, AUTO_INCREMENT, CREATE_TIME FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?")
	if err != nil {
		t.Fatal(err)
	}
	defer stmt.Close()
	read := func() (rows, auto uint64, created time.Time) {
		t.Helper()
		if err := stmt.QueryRow("test", "wire").Scan(&rows, &auto, &created); err != nil {
			t.Fatal(err)
		}
		return
	}
	rows, auto, created := read()
	if rows != 0 || auto != 1 || created.IsZero() {
		t.Fatalf("before insert: rows %d auto %d created %v", rows, auto, created)
	}
	mustExec(t, db, "INSERT INTO wire (v) VALUES ('a')")
	if rows, auto, again := read(); rows != 1 || auto != 2 || !again.Equal(created) {
		t.Fatalf("after insert: rows %d auto %d created %v (was %v)", rows, auto, again, created)
	}
	_, err = db.Exec("DELETE FROM information_schema.TABLES")
	mysqlError(t, err, 1044, "42000")
}
