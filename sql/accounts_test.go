package sql_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// An account statement's password never shows in PROCESSLIST: MySQL's
// <secret> stands in for it (information_schema.PROCESSLIST alike).
func TestProcesslistHidesPasswords(t *testing.T) {
	h := newHarness(t, t.TempDir())
	defer h.close()
	a, b := h.e.NewSession(), h.e.NewSession()
	defer a.Close()
	defer b.Close()
	a.SetRunningQuery("CREATE USER u IDENTIFIED BY 'Hidden-pw-1'")
	for _, q := range []string{"SHOW FULL PROCESSLIST", "SELECT INFO FROM information_schema.PROCESSLIST"} {
		r, err := b.Exec(context.Background(), q, nil)
		if err != nil {
			t.Fatal(err)
		}
		seen := false
		for _, row := range r.Rows {
			for _, v := range row {
				s := v.String()
				if strings.Contains(s, "Hidden-pw-1") {
					t.Errorf("%s shows the password: %s", q, s)
				}
				seen = seen || s == "CREATE USER `u`@`%` IDENTIFIED BY <secret>" // rewritten as the query logs write it
			}
		}
		if !seen {
			t.Errorf("%s does not show the running CREATE USER with <secret>", q)
		}
	}
}

// BenchmarkCreateUser is one CREATE USER (and its durable accounts
// record, which holds the whole catalog) beside n existing accounts.
func BenchmarkCreateUser(b *testing.B) {
	for _, n := range []int{10, 1000} {
		b.Run(fmt.Sprintf("accounts=%d", n), func(b *testing.B) {
			h := newHarness(b, b.TempDir())
			defer h.close()
			s := h.e.NewSession()
			defer s.Close()
			ctx := context.Background()
			for i := range n {
				if _, err := s.Exec(ctx, fmt.Sprintf("CREATE USER e%d IDENTIFIED BY 'pw'", i), nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				if _, err := s.Exec(ctx, fmt.Sprintf("CREATE USER b%d IDENTIFIED BY 'pw'", i), nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
