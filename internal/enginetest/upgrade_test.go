package enginetest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/plrun/plrun"
)

// TestUpgradeFromSnapshotFormat opens a copy of a data folder the
// previous binary wrote (testdata/upgrade/v1: a snapshot, log records
// after it): every object and row must be as the previous binary showed
// them, the folder must now be a table store with its format marker and
// no snapshot, and the error log must say so; then the folder is opened
// from the store alone, written to, and opened again.
func TestUpgradeFromSnapshotFormat(t *testing.T) {
	checks := readFixtureChecks(t)
	dir := copyFixture(t)
	if len(snapshotFiles(t, dir)) != 1 {
		t.Fatal("the fixture has no snapshot")
	}

	db, lb := openLogged(t, dir)
	s := db.Session()
	runFixtureChecks(t, s, "after the upgrade", checks, nil)
	s.Close()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	checkUpgradeLine(t, lb.String())
	if m := snapshotFiles(t, dir); len(m) != 0 {
		t.Errorf("snapshots left after the upgrade: %v", m)
	}
	if !storeInitialized(t, dir) {
		t.Fatal("the table store has no format marker after the upgrade")
	}

	// From the store alone: nothing resident, nothing replayed.
	db, lb = openLogged(t, dir)
	if l := lb.String(); strings.Contains(l, "upgrade:") || strings.Contains(l, "snapshot loaded") {
		t.Errorf("second open upgraded again or read a snapshot:\n%s", l)
	}
	s = db.Session()
	runFixtureChecks(t, s, "reopened from the store", checks, nil)
	promotable := queryValue(t, s, "SELECT COUNT(*) FROM shop.customers WHERE tier = 'silver' AND balance >= 9900")
	writeAfterUpgrade(t, s)
	s.Close()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	db, _ = openLogged(t, dir)
	defer db.Close()
	s = db.Session()
	defer s.Close()
	checkAfterWrites(t, s, promotable)
	// What the writes did not touch is still as the previous binary had it.
	runFixtureChecks(t, s, "after writes and a restart", checks, func(q string) bool {
		for _, w := range []string{"customers", "orders", "audit", "notes", "AUTO_INCREMENT", "k_who"} {
			if strings.Contains(q, w) {
				return false
			}
		}
		return true
	})
}

// checkUpgradeLine finds the upgrade's INFO line with the fixture's
// table and row counts.
func checkUpgradeLine(t *testing.T, log string) {
	t.Helper()
	for _, l := range strings.Split(log, "\n") {
		if strings.Contains(l, `msg="upgrade: data folder moved into the table store"`) {
			want := fmt.Sprintf("tables=%d rows=%d", fixtureTables, fixtureRows)
			if !strings.Contains(l, want) || !strings.Contains(l, "snapshots_removed=1") {
				t.Errorf("upgrade line %q: want %s snapshots_removed=1", l, want)
			}
			return
		}
	}
	t.Errorf("no upgrade line in the error log:\n%s", log)
}

// writeAfterUpgrade writes through every kind of object the fixture has:
// AUTO_INCREMENT (whose counters must not go back to a deleted row's id),
// the SQL procedure and its trigger, the Lua procedure, UNIQUE keys
// (duplicates of stored rows refused), a table without a primary key.
func writeAfterUpgrade(t *testing.T, s *plrun.Session) {
	t.Helper()
	ctx := context.Background()
	execAll(t, s, "USE shop")
	r, err := s.Exec(ctx, "INSERT INTO notes (body) VALUES ('fourth')")
	if err != nil {
		t.Fatal(err)
	}
	if r.LastInsertID != 4 {
		t.Errorf("notes: AUTO_INCREMENT gave %d, want 4 (3 was used, then deleted)", r.LastInsertID)
	}
	execAll(t, s,
		"CALL place_order(8, 2.50, '2024-06-01 00:00:00')",
		"CALL promote(9900.00)",
		"UPDATE customers SET name = 'Renamed' WHERE email = 'c17@example.com'",
		"DELETE FROM audit WHERE who = 'ops'",
		"INSERT INTO audit VALUES ('2024-06-02 00:00:00', 'test', 'after the upgrade')",
	)
	for _, q := range []string{
		"INSERT INTO customers (email, name) VALUES ('c18@example.com', 'twin')",
		"INSERT INTO attachments VALUES ('other', 'a0000002', NULL, NULL)",
		"INSERT INTO digits VALUES (3)",
		"UPDATE customers SET email = 'c20@example.com' WHERE id = 21",
	} {
		if _, err := s.Exec(ctx, q); errCode(err) != 1062 {
			t.Errorf("%s: got %v, want 1062 (a duplicate of a stored row)", q, err)
		}
	}
}

// checkAfterWrites checks writeAfterUpgrade's effects after a restart.
func checkAfterWrites(t *testing.T, s *plrun.Session, promotable string) {
	t.Helper()
	gold := 338 + min(atoi(t, promotable), 5)
	for _, c := range []struct{ q, want string }{
		{"SELECT GROUP_CONCAT(id, ':', body ORDER BY id) FROM shop.notes", "1:first,2:second,4:fourth"},
		{"SELECT id, customer_id, amount FROM shop.orders WHERE id > 3003", "3005\t8\t2.50"},
		{"SELECT orders_placed FROM shop.customers WHERE id = 8", "1"},
		{"SELECT name FROM shop.customers WHERE email = 'c17@example.com'", "Renamed"},
		{"SELECT COUNT(*) FROM shop.customers FORCE INDEX (uk_email) WHERE email = 'c18@example.com'", "1"},
		{"SELECT COUNT(*) FROM shop.customers FORCE INDEX (k_tier) WHERE tier = 'gold'", fmt.Sprint(gold)},
		{"SELECT COUNT(*) FROM shop.gold_customers", fmt.Sprint(gold)},
		{"SELECT GROUP_CONCAT(who ORDER BY who) FROM shop.audit FORCE INDEX (k_who)", "place_order,place_order,place_order,place_order,place_order,setup,test"},
		{"SELECT COUNT(*) FROM shop.orders FORCE INDEX (k_customer) WHERE customer_id = 8", "4"},
		{"SELECT COUNT(*) FROM shop.orders", "2979"},
		{"SELECT name FROM shop.attachments WHERE sha = 'a0000002'", "bytes"},
	} {
		if got := queryValue(t, s, c.q); got != c.want {
			t.Errorf("after writes and a restart: %s: got %q, want %q", c.q, got, c.want)
		}
	}
}

// queryValue is a query's one row, tab-separated as batch mode prints it.
func queryValue(t *testing.T, s *plrun.Session, q string) string {
	t.Helper()
	r, err := s.Query(context.Background(), q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	lines := resultLines(r)
	if len(lines) != 1 {
		t.Fatalf("%s: %d rows, want 1", q, len(lines))
	}
	return lines[0]
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	var n int
	if _, err := fmt.Sscan(s, &n); err != nil {
		t.Fatalf("%q is not a number", s)
	}
	return n
}
