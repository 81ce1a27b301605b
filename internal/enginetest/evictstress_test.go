package enginetest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plrun/plrun"
)

// TestEvictionStress runs a table (100k rows of 200 bytes) ten times the size of its row budget
// (plrun_cache_size at its minimum, 8M: 2 MB of resident rows) under
// point updates, range scans, secondary-index reads and delete/insert
// churn while the applier evicts, then closes, reopens and checks it
// again. It fails if nothing was evicted.
func TestEvictionStress(t *testing.T) {
	if testing.Short() {
		t.Skip("stress test skipped in -short mode")
	}
	if raceOn {
		t.Skip("runs without the race detector: make test's store line (Makefile)")
	}
	const (
		rows    = 100_000
		counted = 80_000 // ids 1..counted: updated; above: churned
		groups  = 1000
		hot     = 5000 // ids 1..hot: half the updates, half the range scans
	)
	settings := map[string]string{"plrun_cache_size": "8M", "enable_early_lock_release": "ON"}
	dir := t.TempDir()
	db, err := plrun.Open(dir, &plrun.Options{Settings: settings})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	s := db.Session()
	execAll(t, s, "CREATE TABLE ev (id INT PRIMARY KEY, k INT NOT NULL, grp INT NOT NULL, val BIGINT NOT NULL, "+
		"pad CHAR(180) NOT NULL, KEY (k), KEY (grp))")
	pad := strings.Repeat("p", 180)
	start := time.Now()
	const batch = 2000
	var sb strings.Builder
	for lo := 1; lo <= rows; lo += batch {
		sb.Reset()
		sb.WriteString("INSERT INTO ev VALUES ")
		for id := lo; id < lo+batch; id++ {
			if id > lo {
				sb.WriteByte(',')
			}
			fmt.Fprintf(&sb, "(%d,%d,%d,0,'%s')", id, id, id%groups, pad)
		}
		if _, err := s.Exec(ctx, sb.String()); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	loaded := time.Since(start)
	table := db.Engine().Database().Txns.Catalog().Table("test", "ev")
	if table == nil {
		t.Fatal("table ev not in the catalog")
	}
	ev := &evictState{grpCount: make([]int64, groups), sumK: int64(rows) * (rows + 1) / 2, rows: rows}
	for id := 1; id <= rows; id++ {
		ev.grpCount[id%groups]++
	}

	loadEvictions := table.Evictions()
	var st evictStats
	var maxResident atomic.Int64
	stop := make(chan struct{})
	errs := make(chan error, 16)
	fail := func(format string, args ...any) {
		select {
		case errs <- fmt.Errorf(format, args...):
		default:
		}
	}
	var wg sync.WaitGroup
	worker := func(name string, fn func(s *plrun.Session, rng *rand.Rand) error) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := db.Session()
			defer s.Close()
			rng := rand.New(rand.NewPCG(uint64(len(name)), uint64(time.Now().UnixNano())))
			for n := 0; n < 20_000; n++ {
				select {
				case <-stop:
					return
				default:
				}
				if err := fn(s, rng); err != nil {
					fail("%s: %v", name, err)
					return
				}
			}
		}()
	}
	// Point updates of the counted rows; each worker counts its own.
	var incs [3]atomic.Int64
	for w := range incs {
		worker(fmt.Sprintf("updater %d", w), func(s *plrun.Session, rng *rand.Rand) error {
			id := 1 + rng.IntN(counted)
			if rng.IntN(2) == 0 {
				id = 1 + rng.IntN(hot) // the range half the scans read
			}
			r, err := s.Exec(ctx, "UPDATE ev SET val = val + 1, k = k + 1 WHERE id = ?", id)
			if err != nil {
				return err
			}
			if r.AffectedRows != 1 {
				return fmt.Errorf("UPDATE of id %d changed %d rows", id, r.AffectedRows)
			}
			incs[w].Add(1)
			return nil
		})
	}
	// Range sums inside REPEATABLE READ transactions: the same range read
	// twice, with updates committing between, must give the same sum.
	for w := 0; w < 2; w++ {
		worker(fmt.Sprintf("scanner %d", w), func(s *plrun.Session, rng *rand.Rand) error {
			lo := 1 + rng.IntN(rows-hot)
			if rng.IntN(2) == 0 {
				lo = 1
			}
			q := "SELECT SUM(val), COUNT(*) FROM ev WHERE id BETWEEN ? AND ?"
			if _, err := s.Exec(ctx, "SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ"); err != nil {
				return err
			}
			if _, err := s.Exec(ctx, "START TRANSACTION WITH CONSISTENT SNAPSHOT"); err != nil {
				return err
			}
			a, err := s.Query(ctx, q, lo, lo+hot-1)
			if err != nil {
				return err
			}
			time.Sleep(time.Duration(30+rng.IntN(70)) * time.Millisecond)
			b, err := s.Query(ctx, q, lo, lo+hot-1)
			if err != nil {
				return err
			}
			if _, err := s.Exec(ctx, "COMMIT"); err != nil {
				return err
			}
			if x, y := a.Rows[0], b.Rows[0]; x[0].String() != y[0].String() || x[1].String() != y[1].String() {
				return fmt.Errorf("range %d..%d inside one transaction: SUM, COUNT %s, %s then %s, %s", lo, lo+hot-1, x[0], x[1], y[0], y[1])
			}
			if lo+hot-1 <= counted && a.Rows[0][1].String() != strconv.Itoa(hot) {
				return fmt.Errorf("range %d..%d of counted rows holds %s rows", lo, lo+hot-1, a.Rows[0][1])
			}
			// Read again outside: a different sum says updates committed
			// while the transaction read (the check above had something
			// to catch).
			c, err := s.Query(ctx, q, lo, lo+hot-1)
			if err != nil {
				return err
			}
			if c.Rows[0][0].String() != a.Rows[0][0].String() {
				st.scansOverlapped.Add(1)
			}
			st.scans.Add(1)
			return nil
		})
	}
	// Secondary-index reads: the churn keeps every group's row count.
	worker("index reader", func(s *plrun.Session, rng *rand.Rand) error {
		g := rng.IntN(groups)
		r, err := s.Query(ctx, "SELECT COUNT(*) FROM ev WHERE grp = ?", g)
		if err != nil {
			return err
		}
		if got := r.Rows[0][0].String(); got != strconv.FormatInt(ev.grpCount[g], 10) {
			return fmt.Errorf("group %d: the index finds %s rows, want %d", g, got, ev.grpCount[g])
		}
		st.indexReads.Add(1)
		return nil
	})
	// Churn: delete a row above counted and insert a fresh one of the same
	// group in one transaction; the row count never changes.
	type churned struct{ id, grp int }
	live := make([]churned, 0, rows-counted)
	for id := counted + 1; id <= rows; id++ {
		live = append(live, churned{id, id % groups})
	}
	next := rows
	var churnK atomic.Int64 // what the churn changed in SUM(k)
	worker("churn", func(s *plrun.Session, rng *rand.Rand) error {
		i := rng.IntN(len(live))
		old, grp := live[i].id, live[i].grp
		next++
		if _, err := s.Exec(ctx, "BEGIN"); err != nil {
			return err
		}
		r, err := s.Exec(ctx, "DELETE FROM ev WHERE id = ?", old)
		if err != nil {
			return err
		}
		if r.AffectedRows != 1 {
			return fmt.Errorf("DELETE of id %d removed %d rows", old, r.AffectedRows)
		}
		if _, err := s.Exec(ctx, "INSERT INTO ev VALUES (?, ?, ?, 0, ?)", next, next, grp, pad); err != nil {
			return err
		}
		if _, err := s.Exec(ctx, "COMMIT"); err != nil {
			return err
		}
		live[i].id = next
		churnK.Add(int64(next - old))
		st.churns.Add(1)
		return nil
	})
	// Whole-table reads: the count never changes, SUM(val) never goes
	// down; and the resident bytes are sampled.
	worker("counter", func(s *plrun.Session, rng *rand.Rand) error {
		r, err := s.Query(ctx, "SELECT COUNT(*), SUM(val) FROM ev")
		if err != nil {
			return err
		}
		if got := r.Rows[0][0].String(); got != strconv.Itoa(rows) {
			return fmt.Errorf("COUNT(*) = %s, want %d", got, rows)
		}
		sum, _ := strconv.ParseInt(r.Rows[0][1].String(), 10, 64)
		if prev := st.lastSum.Swap(sum); sum < prev {
			return fmt.Errorf("SUM(val) went down from %d to %d", prev, sum)
		}
		if b := table.ResidentBytes(); b > maxResident.Load() {
			maxResident.Store(b)
		}
		st.counts.Add(1)
		return nil
	})
	// At least 3 s, and until the workers' writes made the applier evict
	// beside them (at most 12 s: a loaded machine writes slowly).
	began := time.Now()
	for time.Since(began) < 3*time.Second || (table.Evictions() == loadEvictions && time.Since(began) < 12*time.Second) {
		time.Sleep(100 * time.Millisecond)
	}
	ran := time.Since(began)
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if t.Failed() {
		db.Close()
		t.FailNow()
	}
	for i := range incs {
		ev.incs += incs[i].Load()
	}
	ev.sumK += ev.incs + churnK.Load()
	evictions := table.Evictions()
	resident := table.ResidentBytes()
	s = db.Session()
	ev.check(t, s, "at the end")
	if b := statusInt(t, s.SQL(), "Plrun_rows_resident_budget"); b != 2<<20 {
		t.Errorf("Plrun_rows_resident_budget = %d with plrun_cache_size 8M, want %d", b, 2<<20)
	}
	if n := statusInt(t, s.SQL(), "Plrun_rows_evicted"); n < int64(evictions) {
		t.Errorf("Plrun_rows_evicted = %d, but table ev alone evicted %d rows", n, evictions)
	}
	s.Close()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err = plrun.Open(dir, &plrun.Options{Settings: settings})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s = db.Session()
	defer s.Close()
	ev.check(t, s, "after reopen")
	t.Logf("%d rows loaded in %v (%d evicted meanwhile); %v of workers: %d increments, %d churn transactions, %d stable range-sum transactions (%d with updates committed meanwhile), %d index reads, %d whole-table reads, %d rows evicted; resident %d KB at the end (at most %d KB sampled; row budget 2048 KB); %d evicted after the reopen's checks",
		rows, loaded.Round(time.Millisecond), loadEvictions, ran.Round(time.Millisecond), ev.incs, st.churns.Load(), st.scans.Load(), st.scansOverlapped.Load(), st.indexReads.Load(), st.counts.Load(),
		evictions-loadEvictions, resident>>10, maxResident.Load()>>10, db.Engine().Database().Txns.Catalog().Table("test", "ev").Evictions())
	if evictions == loadEvictions {
		t.Errorf("no row was evicted while the workers ran (%d during the load): eviction never ran beside them", loadEvictions)
	}
}

type evictStats struct {
	scans, scansOverlapped, indexReads, churns, counts atomic.Int64
	lastSum                                            atomic.Int64
}

// evictState is what TestEvictionStress's table must hold.
type evictState struct {
	rows     int
	grpCount []int64
	incs     int64 // increments acknowledged: SUM(val)
	sumK     int64
}

func (ev *evictState) check(t *testing.T, s *plrun.Session, when string) {
	t.Helper()
	r, err := s.Query(context.Background(), "SELECT COUNT(*), SUM(val), SUM(k) FROM ev")
	if err != nil {
		t.Fatalf("%s: %v", when, err)
	}
	if got := r.Rows[0][0].String(); got != strconv.Itoa(ev.rows) {
		t.Errorf("%s: COUNT(*) = %s, want %d", when, got, ev.rows)
	}
	if got := r.Rows[0][1].String(); got != strconv.FormatInt(ev.incs, 10) {
		t.Errorf("%s: SUM(val) = %s, want the %d acknowledged increments (lost updates?)", when, got, ev.incs)
	}
	if got := r.Rows[0][2].String(); got != strconv.FormatInt(ev.sumK, 10) {
		t.Errorf("%s: SUM(k) = %s, want %d", when, got, ev.sumK)
	}
	byGroup, err := s.Query(context.Background(), "SELECT grp, COUNT(*) FROM ev GROUP BY grp")
	if err != nil {
		t.Fatalf("%s: %v", when, err)
	}
	if len(byGroup.Rows) != len(ev.grpCount) {
		t.Errorf("%s: %d groups, want %d", when, len(byGroup.Rows), len(ev.grpCount))
	}
	for _, row := range byGroup.Rows {
		g, _ := strconv.Atoi(row[0].String())
		if g < 0 || g >= len(ev.grpCount) || row[1].String() != strconv.FormatInt(ev.grpCount[g], 10) {
			t.Errorf("%s: group %s holds %s rows", when, row[0], row[1])
		}
	}
	rng := rand.New(rand.NewPCG(1, uint64(time.Now().UnixNano())))
	for i := 0; i < 50; i++ {
		g := rng.IntN(len(ev.grpCount))
		r, err := s.Query(context.Background(), "SELECT COUNT(*) FROM ev WHERE grp = ?", g)
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		if got := r.Rows[0][0].String(); got != strconv.FormatInt(ev.grpCount[g], 10) {
			t.Errorf("%s: group %d: the index finds %s rows, want %d", when, g, got, ev.grpCount[g])
		}
	}
	// The index on k (every update moved it): a sample of rows read by
	// primary key must be found by their k.
	for i := 0; i < 300; i++ {
		id := 1 + rng.IntN(ev.rows)
		r, err := s.Query(context.Background(), "SELECT k FROM ev WHERE id = ?", id)
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		if len(r.Rows) == 0 {
			continue // churned away
		}
		k := r.Rows[0][0].String()
		found, err := s.Query(context.Background(), "SELECT id FROM ev WHERE k = ?", k)
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		ok := false
		for _, row := range found.Rows {
			ok = ok || row[0].String() == strconv.Itoa(id)
		}
		if !ok {
			t.Errorf("%s: row %d has k = %s, but the index on k finds %d other rows for it", when, id, k, len(found.Rows))
		}
	}
}
