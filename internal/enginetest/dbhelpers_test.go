package enginetest

import (
	"context"
	"strconv"
	"testing"

	"github.com/plrun/plrun"
)

// execAll runs each statement on s and fails the test at the first error.
func execAll(t testing.TB, s *plrun.Session, qs ...string) {
	t.Helper()
	for _, q := range qs {
		if _, err := s.Exec(context.Background(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// openSession opens the database in dir and a session on it; closeAll
// closes both (the session first) and fails the test if the database does
// not close cleanly.
func openSession(t testing.TB, dir string) (db *plrun.DB, s *plrun.Session, closeAll func()) {
	t.Helper()
	db, err := plrun.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	s = db.Session()
	return db, s, func() {
		t.Helper()
		s.Close()
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// checkAckedInserts fails the test if an insert the crash child
// acknowledged is missing from table ins after recovery.
func checkAckedInserts(t *testing.T, s *plrun.Session, acked map[int64]bool) {
	t.Helper()
	r, err := s.Query(context.Background(), "SELECT id FROM ins")
	if err != nil {
		t.Fatal(err)
	}
	have := make(map[int64]bool, len(r.Rows))
	for _, row := range r.Rows {
		id, _ := strconv.ParseInt(row[0].String(), 10, 64)
		have[id] = true
	}
	for id := range acked {
		if !have[id] {
			t.Errorf("acknowledged insert %d lost", id)
			return
		}
	}
}
