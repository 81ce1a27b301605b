package sql_test

import (
	"context"
	"testing"
)

// TestShowCreateTableRoundTrip: SHOW CREATE TABLE of tables with foreign
// keys and CHECK constraints is a statement that makes the same table
// again (what mysqldump relies on): run it after a DROP, and SHOW CREATE
// TABLE prints the same text; the constraints still hold.
func TestShowCreateTableRoundTrip(t *testing.T) {
	_, s := openWith(t,
		"CREATE TABLE p (a INT, b INT, PRIMARY KEY (a, b))",
		"CREATE TABLE c (id INT PRIMARY KEY CHECK (id > 0), a INT, b INT, q INT, note VARCHAR(10) CHECK (note <> 'x' AND upper(note) NOT IN ('Y', 'Z')), "+
			"CONSTRAINT two FOREIGN KEY (a, b) REFERENCES p (a, b) ON DELETE CASCADE ON UPDATE SET NULL, "+
			"CHECK (q < 10 OR q IS NULL), CONSTRAINT named CHECK (NOT q = 7), FOREIGN KEY (id) REFERENCES c (id))")
	ctx := context.Background()
	show := func() string {
		t.Helper()
		r, err := s.Exec(ctx, "SHOW CREATE TABLE c", nil)
		if err != nil {
			t.Fatal(err)
		}
		return r.Rows[0][1].String()
	}
	first := show()
	for _, q := range []string{"SET foreign_key_checks = 0", "DROP TABLE c", first, "SET foreign_key_checks = 1"} {
		if _, err := s.Exec(ctx, q, nil); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if again := show(); again != first {
		t.Fatalf("SHOW CREATE TABLE after re-creating from it:\n%s\nwant:\n%s", again, first)
	}
	mustExec(t, s, "INSERT INTO p VALUES (1, 2)")
	mustExec(t, s, "INSERT INTO c VALUES (1, 1, 2, 1, 'ok')")
	for q, code := range map[string]uint16{
		"INSERT INTO c VALUES (2, 1, 3, 1, 'ok')":        1452,
		"INSERT INTO c VALUES (0, NULL, NULL, 1, 'ok')":  4025,
		"INSERT INTO c VALUES (3, NULL, NULL, 1, 'z')":   4025,
		"INSERT INTO c VALUES (4, NULL, NULL, 7, 'ok')":  4025,
		"INSERT INTO c VALUES (5, NULL, NULL, 11, 'ok')": 4025,
	} {
		if _, err := s.Exec(ctx, q, nil); codeOf(err) != code {
			t.Errorf("%s: %v, want error %d", q, err, code)
		}
	}
	mustExec(t, s, "DELETE FROM p")
	if r := mustExec(t, s, "SELECT count(*) FROM c"); r.Rows[0][0].String() != "0" {
		t.Errorf("ON DELETE CASCADE lost in the round trip: %s rows left", r.Rows[0][0].String())
	}
}
