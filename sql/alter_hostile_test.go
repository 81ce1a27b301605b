package sql_test

import (
	"context"
	"strings"
	"testing"
)

// TestAlterSpecPairs runs every pair of a set of ALTER TABLE specs (odd
// ones included: the same column twice, a key over a column the same
// statement drops, a rename onto itself) against a table with rows. Each
// must succeed or fail with a MySQL error, never panic, and leave a table
// that reads back whole.
func TestAlterSpecPairs(t *testing.T) {
	specs := []string{
		"ADD COLUMN x INT", "ADD COLUMN x INT NOT NULL DEFAULT 1 FIRST", "ADD COLUMN y VARCHAR(3) AFTER a",
		"ADD COLUMN z INT AUTO_INCREMENT UNIQUE", "ADD COLUMN p INT PRIMARY KEY",
		"DROP COLUMN a", "DROP COLUMN id", "DROP COLUMN x", "DROP COLUMN IF EXISTS b",
		"MODIFY a TINYINT", "MODIFY b INT", "MODIFY id BIGINT AUTO_INCREMENT", "MODIFY a INT NOT NULL",
		"CHANGE a a2 INT", "CHANGE b a INT", "RENAME COLUMN a TO b", "RENAME COLUMN a TO a",
		"ALTER COLUMN a SET DEFAULT 5", "ALTER COLUMN b DROP DEFAULT", "ALTER COLUMN x SET DEFAULT 1",
		"ADD INDEX ia (a)", "ADD UNIQUE (a, b)", "ADD UNIQUE (b)", "ADD PRIMARY KEY (a)", "DROP PRIMARY KEY",
		"DROP INDEX ia", "DROP INDEX ub", "ADD INDEX (a DESC, id)", "RENAME INDEX ub TO ub2",
		"RENAME TO t2", "AUTO_INCREMENT = 10", "ENGINE = InnoDB", "COMMENT = 'c'", "FORCE",
		"ALGORITHM = INPLACE", "LOCK = NONE", "DISABLE KEYS", "CONVERT TO CHARACTER SET utf8mb4",
	}
	h := newHarness(t, t.TempDir())
	defer h.close()
	ctx := context.Background()
	s := h.e.NewSession()
	defer s.Close()
	for i, a := range specs {
		for _, b := range specs[i:] {
			for _, q := range []string{"DROP TABLE IF EXISTS t, t2",
				"CREATE TABLE t (id INT PRIMARY KEY, a INT, b VARCHAR(10), UNIQUE KEY ub (b))",
				"INSERT INTO t VALUES (1, 300, 'x'), (2, NULL, '12abc'), (3, 3, NULL)"} {
				if _, err := s.Exec(ctx, q, nil); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			stmt := "ALTER TABLE t " + a + ", " + b
			_, err := s.Exec(ctx, stmt, nil)
			if err != nil && !strings.HasPrefix(err.Error(), "ERROR ") {
				t.Fatalf("%s: not a MySQL error: %v", stmt, err)
			}
			table := "t"
			if err == nil && strings.Contains(stmt, "RENAME TO t2") {
				table = "t2"
			}
			if r, err := s.Exec(ctx, "SELECT COUNT(*) FROM "+table, nil); err != nil || r.Rows[0][0].String() != "3" {
				t.Fatalf("after %s: %v %v", stmt, r, err)
			}
		}
	}
}
