package server

import (
	"testing"

	"github.com/go-mysql-org/go-mysql/mysql"
)

// TestTemporaryTablesPerConnection: a connection's temporary table is its
// own (another connection sees the permanent table it shadows), and
// COM_RESET_CONNECTION, COM_CHANGE_USER and disconnecting drop it, as in
// MariaDB; its uncommitted rows go with the connection's transaction.
func TestTemporaryTablesPerConnection(t *testing.T) {
	ts := startServer(t, Config{Users: Users{"root": "root", "app": "secret"}}, map[string]string{"innodb_lock_wait_timeout": "1"})
	db := ts.open(t)
	mustExec(t, db, "CREATE TABLE shadow (id INT PRIMARY KEY)")
	mustExec(t, db, "INSERT INTO shadow VALUES (1)")
	rc := dialRaw(t, ts.addr)
	rc.login("root", "root", "test")
	for _, reset := range []struct {
		name string
		cmd  []byte
	}{
		{"COM_RESET_CONNECTION", []byte{mysql.COM_RESET_CONNECTION}},
		{"COM_CHANGE_USER", changeUserPacket("app", "secret", "test", rc.salt)},
	} {
		for _, q := range []string{"CREATE TEMPORARY TABLE shadow (id INT PRIMARY KEY, v INT)", "INSERT INTO shadow VALUES (7, 7), (8, 8)"} {
			if code := errCode(rc.query(q)[0]); code != 0 {
				t.Fatalf("%s: error %d", q, code)
			}
		}
		if got := firstValue(t, rc.query("SELECT count(*) FROM shadow")); got != "2" {
			t.Fatalf("the connection's own shadow holds %s rows, want 2", got)
		}
		var n int
		if err := db.QueryRow("SELECT count(*) FROM shadow").Scan(&n); err != nil || n != 1 {
			t.Fatalf("another connection sees %d rows of shadow (%v), want the permanent table's 1", n, err)
		}
		if r := rc.command(reset.cmd); r[0][0] != mysql.OK_HEADER {
			t.Fatalf("%s: %q", reset.name, r[0])
		}
		if got := firstValue(t, rc.query("SELECT count(*) FROM shadow")); got != "1" {
			t.Errorf("after %s shadow holds %s rows: the temporary table outlived it", reset.name, got)
		}
	}

	// Disconnecting with a transaction open on the temporary table:
	// nothing of it reaches the permanent table it shadowed.
	for _, q := range []string{"CREATE TEMPORARY TABLE shadow (id INT PRIMARY KEY)", "INSERT INTO shadow VALUES (9)", "BEGIN",
		"INSERT INTO shadow VALUES (10)"} {
		if code := errCode(rc.query(q)[0]); code != 0 {
			t.Fatalf("%s: error %d", q, code)
		}
	}
	rc.nc.Close()
	mustExec(t, db, "INSERT INTO shadow VALUES (9)") // 1062 if the temporary row had landed here
	var n int
	if err := db.QueryRow("SELECT count(*) FROM shadow").Scan(&n); err != nil || n != 2 {
		t.Errorf("permanent shadow holds %d rows (%v), want 2", n, err)
	}
}
