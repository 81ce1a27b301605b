package enginetest

import (
	"context"
	"testing"
)

// TestAutoIncSurvivesFill: a table whose rows reach the store by a fill
// (CREATE TABLE ... SELECT, a rebuilding ALTER) keeps its AUTO_INCREMENT
// counter across a restart, even when the row with the highest value was
// deleted: the next insert gets a new id, not a duplicate or a reused one.
func TestAutoIncSurvivesFill(t *testing.T) {
	dir := t.TempDir()
	_, s, closeAll := openSession(t, dir)
	execAll(t, s,
		"CREATE TABLE d (x INT PRIMARY KEY)",
		"INSERT INTO d VALUES (1), (2), (3)",
		"CREATE TABLE c (id INT AUTO_INCREMENT PRIMARY KEY, x INT) SELECT x FROM d",
		"CREATE TABLE a (id INT AUTO_INCREMENT PRIMARY KEY, x INT)",
		"INSERT INTO a (x) VALUES (1), (2), (3)",
		"DELETE FROM a WHERE id = 3",
		"ALTER TABLE a ADD COLUMN y INT",
	)
	closeAll()
	_, s, closeAll = openSession(t, dir)
	defer closeAll()
	for _, c := range []struct {
		q    string
		want uint64
	}{
		{"INSERT INTO c (x) VALUES (9)", 4},
		{"INSERT INTO a (x) VALUES (9)", 4},
	} {
		r, err := s.Exec(context.Background(), c.q)
		if err != nil {
			t.Fatalf("%s after a restart: %v", c.q, err)
		}
		if r.LastInsertID != c.want {
			t.Errorf("%s after a restart: id %d, want %d", c.q, r.LastInsertID, c.want)
		}
	}
}
