package sql

import (
	"context"
	"testing"
)

// TestRefusedInsertsLeaveNoSlots: an INSERT refused after its row slot was
// made (a duplicate UNIQUE value) must not leave an empty slot behind, or
// a stream of refused inserts grows the table's map without bound.
func TestRefusedInsertsLeaveNoSlots(t *testing.T) {
	e, err := Open(Config{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	s := e.NewSession()
	defer s.Close()
	ctx := context.Background()
	for _, q := range []string{
		"CREATE TABLE u (id INT PRIMARY KEY, email VARCHAR(40), UNIQUE KEY (email))",
		"INSERT INTO u VALUES (1, 'a@x'), (2, 'b@x')",
	} {
		if _, err := s.Exec(ctx, q, nil); err != nil {
			t.Fatal(err)
		}
	}
	for i := 3; i < 503; i++ {
		if _, err := s.Exec(ctx, "INSERT INTO u VALUES (?, 'a@x')", []any{i}); err == nil {
			t.Fatalf("insert %d of a duplicate email succeeded", i)
		}
		if _, err := s.Exec(ctx, "UPDATE u SET id = ?, email = 'a@x' WHERE id = 2", []any{i}); err == nil {
			t.Fatalf("update moving row 2 to id %d with a duplicate email succeeded", i)
		}
	}
	if n := e.txm.Catalog().Table("test", "u").Len(); n != 2 {
		t.Fatalf("table u has %d row slots after 1000 refused writes, want 2", n)
	}
}
