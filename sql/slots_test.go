package sql_test

import (
	"context"
	"testing"

	"github.com/plrun/plrun/engine"
	"github.com/plrun/plrun/runtime/builtin"
	"github.com/plrun/plrun/sql"
)

// TestRefusedInsertsLeaveNoSlots: an INSERT refused after its row slot was
// made (a duplicate UNIQUE value) must not leave an empty slot behind, or
// a stream of refused inserts grows the table's map without bound.
func TestRefusedInsertsLeaveNoSlots(t *testing.T) {
	e, s := openWith(t,
		"CREATE TABLE u (id INT PRIMARY KEY, email VARCHAR(40), UNIQUE KEY (email))",
		"INSERT INTO u VALUES (1, 'a@x'), (2, 'b@x')")
	ctx := context.Background()
	for i := 3; i < 503; i++ {
		if _, err := s.Exec(ctx, "INSERT INTO u VALUES (?, 'a@x')", []any{i}); err == nil {
			t.Fatalf("insert %d of a duplicate email succeeded", i)
		}
		if _, err := s.Exec(ctx, "UPDATE u SET id = ?, email = 'a@x' WHERE id = 2", []any{i}); err == nil {
			t.Fatalf("update moving row 2 to id %d with a duplicate email succeeded", i)
		}
	}
	if n := e.Database().Txns.Catalog().Table("test", "u").Len(); n != 2 {
		t.Fatalf("table u has %d row slots after 1000 refused writes, want 2", n)
	}
}

// TestIndexEntriesFollowValues: updating an indexed column many times must
// not leave an index entry per value it ever held.
func TestIndexEntriesFollowValues(t *testing.T) {
	e, s := openWith(t,
		"CREATE TABLE u (id INT PRIMARY KEY, email VARCHAR(40), k INT, UNIQUE KEY (email), KEY (k))",
		"INSERT INTO u VALUES (1, 'a@x', 0), (2, 'b@x', 0)")
	ctx := context.Background()
	for i := 0; i < 500; i++ {
		if _, err := s.Exec(ctx, "UPDATE u SET email = ?, k = k + 1 WHERE id = 1", []any{"v" + string(rune('a'+i%26)) + "@" + string(rune('a'+i/26))}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Exec(ctx, "BEGIN", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Exec(ctx, "UPDATE u SET email = 'rolled@back', k = 999 WHERE id = 2", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Exec(ctx, "ROLLBACK", nil); err != nil {
		t.Fatal(err)
	}
	tab := e.Database().Txns.Catalog().Table("test", "u")
	// Row 1 may still keep its previous version for snapshots (one more
	// key), never one per value it held.
	if n := tab.IndexSize(1); n > 3 {
		t.Errorf("UNIQUE(email) holds %d keys after 500 updates and a rollback, want at most 3", n)
	}
	if n := tab.IndexSize(2); n > 3 {
		t.Errorf("KEY(k) holds %d keys, want at most 3", n)
	}
	// A checkpoint drops versions no snapshot needs: then exactly the
	// current values are indexed.
	if _, err := s.Exec(ctx, "CHECKPOINT", nil); err != nil {
		t.Fatal(err)
	}
	if a, b := tab.IndexSize(1), tab.IndexSize(2); a != 2 || b != 2 {
		t.Errorf("after CHECKPOINT the indexes hold %d and %d keys, want 2 and 2", a, b)
	}
	r, err := s.Exec(ctx, "SELECT id FROM u WHERE email = 'b@x'", nil)
	if err != nil || len(r.Rows) != 1 {
		t.Fatalf("lookup by the unique key after the rollback: %v, %v", r, err)
	}
}

// openWith opens an engine in a temporary folder, runs setup and returns
// it with a session; both close when the test ends.
func openWith(t *testing.T, setup ...string) (*engine.Engine, *sql.Session) {
	t.Helper()
	e, err := engine.Open(engine.Config{Dir: t.TempDir(), Runtimes: builtin.Runtimes()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	s := e.NewSession()
	t.Cleanup(s.Close)
	for _, q := range setup {
		if _, err := s.Exec(context.Background(), q, nil); err != nil {
			t.Fatal(err)
		}
	}
	return e, s
}
