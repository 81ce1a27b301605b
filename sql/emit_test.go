package sql_test

import (
	"context"
	"testing"
)

// TestNotesBounded: a procedure that prints more than max_error_count (64)
// lines keeps the first 64 as notes and counts them all, as MySQL keeps
// and counts warnings; SHOW WARNINGS lists the 64.
func TestNotesBounded(t *testing.T) {
	h := newHarness(t, t.TempDir())
	defer h.close()
	s := h.e.NewSession()
	ctx := context.Background()
	for _, q := range []string{
		"CREATE PROCEDURE chatty(IN n INT) LANGUAGE LUA AS $$ for i = 1, n do print('step ' .. i) end $$",
		"CREATE PROCEDURE chatty_js(IN n INT) LANGUAGE JAVASCRIPT AS $$ for (let i = 1; i <= n; i++) console.log('step ' + i) $$",
	} {
		if _, err := s.Exec(ctx, q, nil); err != nil {
			t.Fatal(err)
		}
	}
	for _, call := range []string{"CALL chatty(70)", "CALL chatty_js(70)"} {
		r, err := s.Exec(ctx, call, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Warnings != 70 || len(r.Notes) != 64 || r.Notes[63].Message != "step 64" {
			t.Fatalf("%s: %d warnings, %d notes (last %v); want 70 and the first 64", call, r.Warnings, len(r.Notes), r.Notes[len(r.Notes)-1])
		}
		w, err := s.Exec(ctx, "SHOW WARNINGS", nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(w.Rows) != 64 {
			t.Fatalf("SHOW WARNINGS after %s: %d rows, want 64", call, len(w.Rows))
		}
	}
}
