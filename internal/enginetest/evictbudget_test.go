package enginetest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/plrun/plrun"
)

// TestEvictionKeepsTheBudget: when the resident rows outgrow their
// budget, the applier evicts down to about its goal (9/10 of the
// budget), not far below it: the rows it drops are the cache. A table of
// 30k rows (five times the budget of plrun_cache_size 8M) is loaded and
// checkpointed, then 6000 of its rows are written in one transaction
// (more than the budget by themselves); once that is applied, at least
// half the budget must still be resident.
func TestEvictionKeepsTheBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short mode")
	}
	db, err := plrun.Open(t.TempDir(), &plrun.Options{Settings: map[string]string{"plrun_cache_size": "8M"}})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s := db.Session()
	defer s.Close()
	execAll(t, s, "CREATE TABLE eb (id INT PRIMARY KEY, k INT NOT NULL, grp INT NOT NULL, val BIGINT NOT NULL, pad CHAR(180) NOT NULL, KEY (k), KEY (grp))")
	pad := strings.Repeat("p", 180)
	var sb strings.Builder
	for lo := 1; lo <= 30_000; lo += 2000 {
		sb.Reset()
		sb.WriteString("INSERT INTO eb VALUES ")
		for id := lo; id < lo+2000; id++ {
			if id > lo {
				sb.WriteByte(',')
			}
			fmt.Fprintf(&sb, "(%d,%d,%d,0,'%s')", id, id, id%1000, pad)
		}
		execAll(t, s, sb.String())
	}
	// The second CHECKPOINT purges the versions the UPDATE kept; the
	// next commit's batch is followed by an eviction pass that may drop
	// any clean row.
	execAll(t, s, "CHECKPOINT", "UPDATE eb SET val = val + 1 WHERE id BETWEEN 10001 AND 16000", "CHECKPOINT",
		"UPDATE eb SET val = val + 1 WHERE id = 1")
	budget := statusInt(t, s.SQL(), "Plrun_rows_resident_budget")
	var resident int64
	for i := 0; i < 100; i++ {
		execAll(t, s, "CHECKPOINT", "UPDATE eb SET val = val + 1 WHERE id = 1")
		if resident = statusInt(t, s.SQL(), "Plrun_rows_resident_bytes"); resident <= budget {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("after 6000 rows written: %d KB resident of a %d KB budget; %d rows evicted in all", resident>>10, budget>>10, statusInt(t, s.SQL(), "Plrun_rows_evicted"))
	if resident > budget {
		t.Fatalf("%d KB resident, over the %d KB budget after 100 commits", resident>>10, budget>>10)
	}
	if resident < budget/2 {
		t.Errorf("the applier evicted down to %d KB, far below the %d KB budget's goal", resident>>10, budget*9/10>>10)
	}
}
