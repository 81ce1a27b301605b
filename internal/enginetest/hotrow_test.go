package enginetest

import (
	"context"
	"strconv"
	"sync"
	"testing"

	"github.com/plrun/plrun"
	"github.com/plrun/plrun/sqlerr"
)

// TestHotRowGroupUpdate runs seed 002's hinted UPDATE from many sessions
// with hotspot ON: the updates are grouped (one lock acquisition and one
// commit per group), every acknowledged update is counted exactly once, a
// member whose update fails (unsigned underflow, TARGET_AFFECT_ROW) fails
// alone, and everything survives a reopen.
func TestHotRowGroupUpdate(t *testing.T) {
	for _, elr := range []string{"OFF", "ON"} {
		t.Run("elr="+elr, func(t *testing.T) { runHotRowGroups(t, elr) })
	}
}

func runHotRowGroups(t *testing.T, elr string) {
	dir := t.TempDir()
	settings := map[string]string{"enable_early_lock_release": elr, "hotspot": "ON", "hotspot_update_max_wait_time": "2000"}
	db, err := plrun.Open(dir, &plrun.Options{Settings: settings})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	setup := db.Session()
	execAll(t, setup,
		"CREATE TABLE sbtest (id INT UNSIGNED NOT NULL, c BIGINT UNSIGNED NOT NULL, PRIMARY KEY (id))",
		"INSERT INTO sbtest VALUES (1, 0), (2, 5)",
	)
	const sessions, each = 16, 150
	var wg sync.WaitGroup
	var mu sync.Mutex
	acked, underflows, otherErrs := 0, 0, []error{}
	for w := 0; w < sessions; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			s := db.Session()
			defer s.Close()
			for i := 0; i < each; i++ {
				q := "UPDATE /*+ COMMIT_ON_SUCCESS ROLLBACK_ON_FAIL TARGET_AFFECT_ROW(1) */ sbtest SET c = c + 1 WHERE id = 1"
				if w%4 == 0 && i%10 == 0 {
					// Row 2 runs out after 5 decrements: those members fail alone.
					q = "UPDATE /*+ COMMIT_ON_SUCCESS ROLLBACK_ON_FAIL TARGET_AFFECT_ROW(1) */ sbtest SET c = c - 1 WHERE id = 2"
				}
				_, err := s.Exec(ctx, q)
				mu.Lock()
				switch e, _ := sqlerr.As(err); {
				case err == nil && q[len(q)-1] == '1':
					acked++
				case err == nil:
				case e != nil && e.Code == sqlerr.ErDataOutOfRange:
					underflows++
				default:
					otherErrs = append(otherErrs, err)
				}
				mu.Unlock()
			}
		}(w)
	}
	wg.Wait()
	for _, err := range otherErrs {
		t.Error(err)
	}
	check := func(db *plrun.DB, when string) {
		s := db.Session()
		defer s.Close()
		r, err := s.Query(ctx, "SELECT c FROM sbtest ORDER BY id")
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Rows[0][0].String(); got != strconv.Itoa(acked) {
			t.Fatalf("%s: row 1 c = %s, want %d acknowledged increments", when, got, acked)
		}
		if got := r.Rows[1][0].String(); got != "0" {
			t.Fatalf("%s: row 2 c = %s, want 0 after 5 successful decrements", when, got)
		}
	}
	check(db, "before reopen")
	if underflows != 4*15-5 {
		t.Errorf("%d decrements failed with 1690, want %d (60 tried, 5 possible)", underflows, 4*15-5)
	}
	r, err := setup.Query(ctx, "SHOW GLOBAL STATUS LIKE 'Group_update%'")
	if err != nil {
		t.Fatal(err)
	}
	status := map[string]string{}
	for _, row := range r.Rows {
		status[row[0].String()] = row[1].String()
	}
	groups, _ := strconv.Atoi(status["Group_update_groups"])
	followers, _ := strconv.Atoi(status["Group_update_followers"])
	if groups == 0 || followers == 0 || groups+followers != sessions*each {
		t.Errorf("Group_update counters %v: want groups + followers = %d updates, with followers > 0", status, sessions*each)
	}
	// TARGET_AFFECT_ROW(1) on a row that does not exist fails, alone.
	_, err = setup.Exec(ctx, "UPDATE /*+ COMMIT_ON_SUCCESS TARGET_AFFECT_ROW(1) */ sbtest SET c = c + 1 WHERE id = 3")
	if err == nil {
		t.Error("TARGET_AFFECT_ROW(1) on a missing row succeeded")
	}
	setup.Close()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db2, err := plrun.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	check(db2, "after reopen")
	t.Logf("ELR %s: %d increments in %d groups (%s avg, max %s), %d underflows refused", elr, acked, groups, status["Group_update_avg_group_size"], status["Group_update_max_group_size"], underflows)
}
