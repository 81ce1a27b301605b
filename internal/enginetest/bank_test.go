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

const (
	bankAccounts     = 24
	bankInitialCents = 100000 // 1000.00 each
)

// cents formats an amount of cents as a DECIMAL(12,2) literal.
func cents(c int64) string {
	neg := ""
	if c < 0 {
		neg, c = "-", -c
	}
	return fmt.Sprintf("%s%d.%02d", neg, c/100, c%100)
}

// parseCents reads a DECIMAL(12,2) as printed by the engine.
func parseCents(s string) (int64, error) {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, frac, ok := strings.Cut(s, ".")
	if !ok || len(frac) != 2 {
		return 0, fmt.Errorf("not a DECIMAL(12,2): %q", s)
	}
	w, err := strconv.ParseInt(whole, 10, 64)
	if err != nil {
		return 0, err
	}
	f, err := strconv.ParseInt(frac, 10, 64)
	if err != nil {
		return 0, err
	}
	c := w*100 + f
	if neg {
		c = -c
	}
	return c, nil
}

func TestBankTransfer(t *testing.T) {
	for _, elr := range []string{"OFF", "ON"} {
		t.Run("elr="+elr, func(t *testing.T) {
			workers := 16
			if elr == "ON" {
				workers = 32
			}
			runBank(t, elr, workers, 150, false)
		})
	}
}

// TestBankPointReadSnapshot adds a checker that reads every account by
// primary key in one statement (WHERE id IN (...)). The point reads must
// all see the statement's one snapshot (READ COMMITTED at statement level,
// as InnoDB's read view gives): a transfer committing between two of them
// must not be seen half, or the SUM drifts.
func TestBankPointReadSnapshot(t *testing.T) {
	runBank(t, "ON", 16, 100, true)
}

type bankStats struct {
	committed, rolledBack, skipped, deadlocks, timeouts, sums, checkpoints atomic.Int64
}

func runBank(t *testing.T, elr string, workers, transfersEach int, pointReads bool) {
	dir := t.TempDir()
	settings := map[string]string{"enable_early_lock_release": elr, "innodb_lock_wait_timeout": "1"}
	db, err := plrun.Open(dir, &plrun.Options{Settings: settings})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	setup := db.Session()
	if _, err := setup.Exec(ctx, "CREATE TABLE accounts (id INT PRIMARY KEY, balance DECIMAL(12,2) NOT NULL)"); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= bankAccounts; i++ {
		if _, err := setup.Exec(ctx, "INSERT INTO accounts VALUES (?, ?)", i, cents(bankInitialCents)); err != nil {
			t.Fatal(err)
		}
	}
	setup.Close()
	want := cents(bankAccounts * bankInitialCents)

	var st bankStats
	var wg sync.WaitGroup
	errs := make(chan error, workers+4)
	stop := make(chan struct{})
	// Concurrent checkers: the total, read by a single SELECT, never changes.
	var checkers sync.WaitGroup
	checkerCount := 2
	if pointReads {
		checkerCount = 3
	}
	for c := 0; c < checkerCount; c++ {
		checkers.Add(1)
		go func(c int) {
			defer checkers.Done()
			s := db.Session()
			defer s.Close()
			q := "SELECT SUM(balance) FROM accounts"
			switch c {
			case 1:
				q = "SELECT SUM(balance), COUNT(*) FROM accounts WHERE balance >= -1000000"
			case 2: // point reads of every primary key
				ids := make([]string, bankAccounts)
				for i := range ids {
					ids[i] = strconv.Itoa(i + 1)
				}
				q = "SELECT SUM(balance) FROM accounts WHERE id IN (" + strings.Join(ids, ",") + ")"
			}
			for {
				select {
				case <-stop:
					return
				default:
				}
				r, err := s.Query(ctx, q)
				if err != nil {
					errs <- fmt.Errorf("checker %q: %v", q, err)
					return
				}
				if got := r.Rows[0][0].String(); got != want {
					errs <- fmt.Errorf("checker %q saw total %s, want %s", q, got, want)
					return
				}
				st.sums.Add(1)
			}
		}(c)
	}
	// Checkpoints run throughout: they read a snapshot while transfers
	// commit, and the reopen below recovers from the last one plus the log.
	checkers.Add(1)
	go func() {
		defer checkers.Done()
		s := db.Session()
		defer s.Close()
		for {
			select {
			case <-stop:
				return
			case <-time.After(25 * time.Millisecond):
			}
			if _, err := s.Exec(ctx, "CHECKPOINT"); err != nil {
				errs <- fmt.Errorf("checkpoint: %v", err)
				return
			}
			st.checkpoints.Add(1)
		}
	}()
	// A hog holds one account's lock past innodb_lock_wait_timeout (1 s), so
	// the workers meet 1205 as well as 1213 and must retry.
	checkers.Add(1)
	go func() {
		defer checkers.Done()
		s := db.Session()
		defer s.Close()
		for round := 0; round < 2; round++ {
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
			}
			if _, err := s.Exec(ctx, "BEGIN"); err != nil {
				errs <- fmt.Errorf("hog: %v", err)
				return
			}
			if _, err := s.Query(ctx, "SELECT balance FROM accounts WHERE id = ? FOR UPDATE", round+1); err != nil {
				if c := errCode(err); c == 1213 || c == 1205 {
					s.Exec(ctx, "ROLLBACK")
					continue
				}
				errs <- fmt.Errorf("hog: %v", err)
				return
			}
			time.Sleep(1300 * time.Millisecond)
			if _, err := s.Exec(ctx, "COMMIT"); err != nil {
				errs <- fmt.Errorf("hog commit: %v", err)
				return
			}
		}
	}()
	within(t, 80*time.Second, "bank workers", func() {
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				s := db.Session()
				defer s.Close()
				rng := rand.New(rand.NewPCG(uint64(w), 42))
				for i := 0; i < transfersEach; i++ {
					if err := bankTransfer(ctx, s, rng, &st); err != nil {
						errs <- fmt.Errorf("worker %d transfer %d: %w", w, i, err)
						return
					}
				}
			}(w)
		}
		wg.Wait()
	})
	close(stop)
	checkers.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if t.Failed() {
		db.Close()
		return
	}
	check := func(db *plrun.DB, when string) {
		s := db.Session()
		defer s.Close()
		r, err := s.Query(ctx, "SELECT id, balance FROM accounts ORDER BY id")
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		if len(r.Rows) != bankAccounts {
			t.Fatalf("%s: %d accounts, want %d", when, len(r.Rows), bankAccounts)
		}
		var total int64
		for _, row := range r.Rows {
			c, err := parseCents(row[1].String())
			if err != nil {
				t.Fatalf("%s: %v", when, err)
			}
			total += c
		}
		if total != bankAccounts*bankInitialCents {
			t.Fatalf("%s: total of the rows is %s, want %s", when, cents(total), want)
		}
		r, err = s.Query(ctx, "SELECT SUM(balance) FROM accounts")
		if err != nil || r.Rows[0][0].String() != want {
			t.Fatalf("%s: SUM = %v (err %v), want %s", when, r, err, want)
		}
	}
	check(db, "at the end")
	if err := db.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	db2, err := plrun.Open(dir, nil)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	check(db2, "after reopen")
	db2.Close()
	t.Logf("ELR %s, %d workers: %d committed, %d rolled back on purpose, %d skipped (short balance), %d deadlocks, %d lock wait timeouts retried; %d concurrent SUM checks, %d checkpoints",
		elr, workers, st.committed.Load(), st.rolledBack.Load(), st.skipped.Load(), st.deadlocks.Load(), st.timeouts.Load(), st.sums.Load(), st.checkpoints.Load())
	if st.committed.Load() == 0 {
		t.Fatal("no transfer committed")
	}
}

// bankTransfer moves a random amount between two random accounts in one
// explicit transaction, retrying deadlocks and lock wait timeouts.
func bankTransfer(ctx context.Context, s *plrun.Session, rng *rand.Rand, st *bankStats) error {
	a := rng.IntN(bankAccounts) + 1
	b := rng.IntN(bankAccounts-1) + 1
	if b >= a {
		b++
	}
	amount := int64(rng.IntN(20000) + 1)
	mode := rng.IntN(10) // 0-4: SELECT FOR UPDATE first; 5-8: UPDATEs only; 9: roll back on purpose
	for attempt := 0; ; attempt++ {
		if attempt > 1000 {
			return fmt.Errorf("gave up after %d retries", attempt)
		}
		done, err := tryTransfer(ctx, s, a, b, amount, mode, st)
		if err == nil {
			return nil
		}
		switch errCode(err) {
		case 1213:
			st.deadlocks.Add(1)
		case 1205:
			st.timeouts.Add(1)
		default:
			return err
		}
		if !done {
			// 1205 rolls back only the statement; 1213 the whole
			// transaction. ROLLBACK either way before retrying.
			if _, err := s.Exec(ctx, "ROLLBACK"); err != nil {
				return fmt.Errorf("rollback after retryable error: %w", err)
			}
		}
	}
}

func tryTransfer(ctx context.Context, s *plrun.Session, a, b int, amount int64, mode int, st *bankStats) (bool, error) {
	if _, err := s.Exec(ctx, "BEGIN"); err != nil {
		return false, err
	}
	if mode < 5 {
		var bal [2]int64
		for i, id := range []int{a, b} {
			r, err := s.Query(ctx, "SELECT balance FROM accounts WHERE id = ? FOR UPDATE", id)
			if err != nil {
				return false, err
			}
			if len(r.Rows) != 1 {
				return false, fmt.Errorf("account %d: %d rows", id, len(r.Rows))
			}
			if bal[i], err = parseCents(r.Rows[0][0].String()); err != nil {
				return false, err
			}
		}
		if bal[0] < amount {
			_, err := s.Exec(ctx, "ROLLBACK")
			st.skipped.Add(1)
			return true, err
		}
	}
	for _, u := range []struct {
		q  string
		id int
	}{{"UPDATE accounts SET balance = balance - ? WHERE id = ?", a}, {"UPDATE accounts SET balance = balance + ? WHERE id = ?", b}} {
		r, err := s.Exec(ctx, u.q, cents(amount), u.id)
		if err != nil {
			return false, err
		}
		if r.AffectedRows != 1 {
			return false, fmt.Errorf("%s (%d): %d rows affected", u.q, u.id, r.AffectedRows)
		}
	}
	if mode == 9 {
		_, err := s.Exec(ctx, "ROLLBACK")
		st.rolledBack.Add(1)
		return true, err
	}
	if _, err := s.Exec(ctx, "COMMIT"); err != nil {
		return true, fmt.Errorf("COMMIT: %w", err)
	}
	st.committed.Add(1)
	return true, nil
}
