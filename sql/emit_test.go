package sql_test

import (
	"context"
	"strings"
	"testing"

	"github.com/plrun/plrun/sqlerr"
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

// TestCallRefusesSets: Session.Call returns parameters only, so a
// procedure's emit fails there with 1312 (0A000), as a SELECT in a MySQL
// procedure does for a caller that takes no result sets; the procedure can
// catch it and go on.
func TestCallRefusesSets(t *testing.T) {
	h := newHarness(t, t.TempDir())
	defer h.close()
	s := h.e.NewSession()
	ctx := context.Background()
	for _, q := range []string{
		"CREATE PROCEDURE emits(OUT b INT) LANGUAGE LUA AS $$ b = 1; session:emit({'a'}, {{1}}) $$",
		"CREATE PROCEDURE catches(OUT b INT) LANGUAGE JAVASCRIPT AS $$ try { session.emit(['a'], [[1]]); } catch (e) { b = e.code; } $$",
	} {
		if _, err := s.Exec(ctx, q, nil); err != nil {
			t.Fatal(err)
		}
	}
	_, err := s.Call(ctx, "emits", []any{nil})
	if e, ok := sqlerr.As(err); !ok || e.Code != 1312 || e.State != "0A000" || !strings.Contains(e.Message, "PROCEDURE test.emits can't return a result set in the given context") {
		t.Fatalf("Call(emits): %v, want error 1312", err)
	}
	vals, err := s.Call(ctx, "catches", []any{nil})
	if err != nil || vals[0].String() != "1312" {
		t.Fatalf("Call(catches) = %v, %v; want b = 1312", vals, err)
	}
	// Exec of the same CALL takes the set.
	r, err := s.Exec(ctx, "CALL emits(@b)", nil)
	if err != nil || len(r.Sets) != 1 {
		t.Fatalf("CALL emits(@b): %v, %v; want one set", r, err)
	}
}

// TestEmitChargesBudget: emitted sets count against the CALL's memory
// budget (plrun_max_statement_memory), so a loop of emits fails with 3170
// rather than growing the process; the next CALL starts afresh.
func TestEmitChargesBudget(t *testing.T) {
	h := newHarness(t, t.TempDir())
	defer h.close()
	s := h.e.NewSession()
	ctx := context.Background()
	for _, q := range []string{
		"SET plrun_max_statement_memory = 1048576",
		"CREATE PROCEDURE flood(IN n INT) LANGUAGE LUA AS $$ local big = string.rep('x', 10000)\nfor i = 1, n do session:emit({'s'}, {{big}}) end $$",
	} {
		if _, err := s.Exec(ctx, q, nil); err != nil {
			t.Fatal(err)
		}
	}
	_, err := s.Exec(ctx, "CALL flood(1000)", nil)
	if e, ok := sqlerr.As(err); !ok || e.Code != 3170 {
		t.Fatalf("CALL flood(1000): %v, want error 3170", err)
	}
	for i := 0; i < 3; i++ {
		if r, err := s.Exec(ctx, "CALL flood(50)", nil); err != nil || len(r.Sets) != 50 {
			t.Fatalf("CALL flood(50) #%d: %v (budget not given back?)", i, err)
		}
	}
}
