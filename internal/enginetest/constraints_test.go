package enginetest

import (
	"context"
	"testing"

	"github.com/plrun/plrun/sqlerr"
)

// TestConstraintsSurviveCheckpointAndReplay: FOREIGN KEYs and CHECKs are
// part of the table definition in a checkpoint's snapshot (the parent and
// child made before it) and in the log's DDL records (a table made after
// it): after a restart SHOW CREATE TABLE prints the same and both still
// hold.
func TestConstraintsSurviveCheckpointAndReplay(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	_, s, closeAll := openSession(t, dir)
	execAll(t, s,
		"CREATE TABLE p (id INT PRIMARY KEY)",
		"CREATE TABLE c (id INT PRIMARY KEY, pid INT CHECK (pid > 0), CONSTRAINT fk FOREIGN KEY (pid) REFERENCES p (id) ON DELETE CASCADE)",
		"INSERT INTO p VALUES (1), (2)",
		"INSERT INTO c VALUES (1, 1), (2, 2)",
		"CHECKPOINT",
		"CREATE TABLE c2 (pid INT, CHECK (pid < 100), FOREIGN KEY (pid) REFERENCES p (id))",
		"INSERT INTO c2 VALUES (2)",
	)
	before := map[string]string{}
	for _, tb := range []string{"c", "c2"} {
		r, err := s.Exec(ctx, "SHOW CREATE TABLE "+tb)
		if err != nil {
			t.Fatal(err)
		}
		before[tb] = r.Rows[0][1].String()
	}
	closeAll()
	_, s, closeAll = openSession(t, dir)
	defer closeAll()
	for tb, want := range before {
		r, err := s.Exec(ctx, "SHOW CREATE TABLE "+tb)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Rows[0][1].String(); got != want {
			t.Errorf("SHOW CREATE TABLE %s after restart:\n%s\nwant:\n%s", tb, got, want)
		}
	}
	for _, c := range []struct {
		q    string
		code uint16
	}{
		{"INSERT INTO c VALUES (3, 9)", sqlerr.ErNoReferencedRow2},
		{"INSERT INTO c VALUES (4, -1)", sqlerr.ErConstraintFailed},
		{"INSERT INTO c2 VALUES (200)", sqlerr.ErConstraintFailed},
		{"INSERT INTO c2 VALUES (7)", sqlerr.ErNoReferencedRow2},
		{"DELETE FROM p WHERE id = 2", sqlerr.ErRowIsReferenced2}, // c2 restricts
		{"DROP TABLE p", sqlerr.ErRowIsReferenced2},
		{"INSERT INTO c VALUES (5, 1)", 0},
		{"DELETE FROM p WHERE id = 1", 0}, // cascades to c
	} {
		if _, err := s.Exec(ctx, c.q); errCode(err) != c.code {
			t.Errorf("%s after restart: %v, want error %d", c.q, err, c.code)
		}
	}
	if n := queryInt64(t, s, "SELECT count(*) FROM c"); n != 1 {
		t.Errorf("c holds %d rows after the cascade, want 1", n)
	}
}
