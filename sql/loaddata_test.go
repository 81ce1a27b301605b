package sql_test

import (
	"os"
	"path/filepath"
	"testing"
)

// TestLoadDataInsertID: LOAD DATA's OK carries no insert id (pymysql's
// lastrowid is 0 after it in MariaDB 10.11), and LAST_INSERT_ID() is the
// first value it generated, over several batches.
func TestLoadDataInsertID(t *testing.T) {
	_, s := newHostileSession(t)
	file := filepath.Join(t.TempDir(), "ids.txt")
	var data []byte
	for i := 0; i < 700; i++ {
		data = append(data, "\\N\tx\n"...)
	}
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	mustExec(t, s, "create table ai (id int auto_increment primary key, v varchar(5))")
	mustExec(t, s, "insert into ai values (41, 'a')")
	r := mustExec(t, s, "load data infile '"+file+"' into table ai")
	if r.AffectedRows != 700 || r.LastInsertID != 0 {
		t.Fatalf("LOAD DATA: %d rows, insert id %d; want 700 and 0", r.AffectedRows, r.LastInsertID)
	}
	if got := mustExec(t, s, "select last_insert_id()").Rows[0][0].String(); got != "42" {
		t.Fatalf("LAST_INSERT_ID() = %s, want 42", got)
	}
}
