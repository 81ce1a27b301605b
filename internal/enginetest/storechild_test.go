package enginetest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/plrun/plrun/engine"
	"github.com/plrun/plrun/runtime/builtin"
	"github.com/plrun/plrun/sql"
	"github.com/plrun/plrun/wal"
)

// The store crash tests (storecrash_test.go) run a bank on the table
// store: transfers between storeAccounts accounts whose total never
// changes, each one transaction that moves an amount and logs it in
// transfers. The child (TestCrashChild, mode "store") is told by envStore
// how to run and where to die.
const envStore = "PLRUN_ENGINETEST_STORE"

const (
	storeAccounts = 16
	storeInitial  = 1_000_000
	storeTotal    = storeAccounts * storeInitial
)

const storeBankDDL = "CREATE TABLE accounts (id INT PRIMARY KEY, balance BIGINT NOT NULL);" +
	"CREATE TABLE transfers (id BIGINT PRIMARY KEY, src INT NOT NULL, dst INT NOT NULL, amount INT NOT NULL, " +
	"cid BIGINT NOT NULL, note VARCHAR(700) NOT NULL, KEY (src))"

// storeProcSQL makes n transfers, each its own commit (asynchronous
// under ob_enable_pl_async_commit; the CALL's reply waits for all): ids
// cid*100+i, accounts locked in id order as the DML transfers lock them.
const storeProcSQL = `CREATE PROCEDURE bank_many(IN cid BIGINT, IN n INT)
BEGIN
  DECLARE i INT DEFAULT 1;
  DECLARE s INT;
  DECLARE d INT;
  DECLARE amt INT;
  WHILE i <= n DO
    SET s = (cid + i) % 16 + 1;
    SET d = (cid + 3 * i) % 15 + 1;
    IF d >= s THEN
      SET d = d + 1;
    END IF;
    SET amt = (cid * 7 + i) % 900 + 1;
    START TRANSACTION;
    UPDATE accounts SET balance = balance + IF(id = s, -amt, amt) WHERE id = LEAST(s, d);
    UPDATE accounts SET balance = balance + IF(id = s, -amt, amt) WHERE id = GREATEST(s, d);
    INSERT INTO transfers VALUES (cid * 100 + i, s, d, amt, cid, REPEAT('p', 300 + (cid + i) % 300));
    COMMIT;
    SET i = i + 1;
  END WHILE;
END`

// storeSpec is how one child runs: its settings and where it dies.
type storeSpec struct {
	elr, trxCommit string
	// kill: "flush" (the Nth store flush), "truncate" (the Nth checkpoint
	// after its flush, before the log truncation) or "parent" (the parent
	// kills it; the child checkpoints in a loop).
	kill  string
	n     int
	delay time.Duration // for "flush": kill this long after the flush began (0: in the hook)
}

func (s storeSpec) env() string {
	return fmt.Sprintf("%s %s %s %d %d", s.elr, s.trxCommit, s.kill, s.n, s.delay.Microseconds())
}

func parseStoreSpec(text string) (storeSpec, error) {
	var s storeSpec
	var us int64
	if _, err := fmt.Sscan(text, &s.elr, &s.trxCommit, &s.kill, &s.n, &us); err != nil {
		return s, fmt.Errorf("bad %s %q: %v", envStore, text, err)
	}
	s.delay = time.Duration(us) * time.Microsecond
	return s, nil
}

// storeConfig is the engine configuration of the child and of the
// parent's reopens: small log segments, so a truncation removes whole
// files as well as rewriting the first one it keeps.
func storeConfig(dir string, settings map[string]string) engine.Config {
	return engine.Config{Runtimes: builtin.Runtimes(), Dir: dir, Settings: settings,
		WalOptions: wal.Options{SegmentSize: 256 << 10}}
}

func selfKill() { syscall.Kill(os.Getpid(), syscall.SIGKILL) }

// storeChild is the child side. Lines: "t id" a DML transfer committed;
// "C cid n" / "c cid" a CALL of bank_many started / replied; "F n" the
// store's nth flush began; "T n lsn" the nth checkpoint flushed the store
// up to lsn and is about to truncate the log; "K n" / "k n" the child's
// nth CHECKPOINT started / returned.
func storeChild(iter int64, say func(string, ...any)) {
	spec, err := parseStoreSpec(os.Getenv(envStore))
	if err != nil {
		say("fatal %v", err)
		os.Exit(3)
	}
	// Automatic checkpoints every 1 MB of log, except when the parent
	// aims at the truncations of the child's own CHECKPOINTs.
	ckptSize := "1048576"
	if spec.kill == "parent" {
		ckptSize = "1099511627776"
	}
	cfg := storeConfig(os.Getenv(envDir), map[string]string{
		"enable_early_lock_release":      spec.elr,
		"innodb_flush_log_at_trx_commit": spec.trxCommit,
		"ob_enable_pl_async_commit":      "ON",
		"innodb_lock_wait_timeout":       "10",
		"plrun_checkpoint_log_size":      ckptSize,
	})
	var flushes, truncs atomic.Int64
	cfg.OnStoreFlush = func() {
		n := flushes.Add(1)
		say("F %d", n)
		if spec.kill != "flush" || n != int64(spec.n) {
			return
		}
		if spec.delay == 0 {
			selfKill()
			return
		}
		time.AfterFunc(spec.delay, selfKill)
	}
	cfg.BeforeTruncate = func(applied uint64) {
		n := truncs.Add(1)
		say("T %d %d", n, applied)
		if spec.kill == "truncate" && n == int64(spec.n) {
			selfKill()
		}
	}
	e, err := engine.Open(cfg)
	if err != nil {
		say("fatal open: %v", err)
		os.Exit(3)
	}
	ctx := context.Background()
	fail := func(what string, err error) {
		say("err %s: %v", what, err)
		os.Exit(5)
	}
	say("ready")
	for g := 0; g < 6; g++ {
		go func(g int) {
			s := e.NewSession()
			rng := rand.New(rand.NewPCG(uint64(iter), uint64(g)))
			for n := int64(0); ; n++ {
				id := iter*1_000_000_000 + int64(g)*1_000_000 + n
				if err := storeTransfer(ctx, s, rng, id); err != nil {
					fail("transfer", err)
				}
				say("t %d", id)
			}
		}(g)
	}
	for g := 0; g < 2; g++ {
		go func(g int) {
			s := e.NewSession()
			rng := rand.New(rand.NewPCG(uint64(iter), uint64(100+g)))
			for n := int64(0); ; n++ {
				cid := iter*1_000_000 + int64(g)*100_000 + n
				steps := 2 + rng.IntN(8)
				say("C %d %d", cid, steps)
				_, err := sqlExec(ctx, s, "CALL bank_many(?, ?)", cid, steps)
				if err == nil {
					say("c %d", cid)
					continue
				}
				if c := errCode(err); c != 1213 && c != 1205 {
					fail("call", err)
				}
				// A lock wait timeout undoes only the statement: the
				// transfer's transaction is still open.
				if _, err := sqlExec(ctx, s, "ROLLBACK"); err != nil {
					fail("rollback after call", err)
				}
			}
		}(g)
	}
	// Checkpoints beside the automatic ones (plrun_checkpoint_log_size
	// 1M): every 100 ms, or back to back when the parent aims at a
	// truncation.
	pause := 100 * time.Millisecond
	if spec.kill == "parent" {
		pause = time.Millisecond
	}
	s := e.NewSession()
	for n := 1; ; n++ {
		time.Sleep(pause)
		say("K %d", n)
		if _, err := sqlExec(ctx, s, "CHECKPOINT"); err != nil {
			fail("checkpoint", err)
		}
		say("k %d", n)
	}
}

// storeTransfer moves an amount between two accounts (locked in id
// order) and logs it as transfer id, retrying deadlocks and lock wait
// timeouts.
func storeTransfer(ctx context.Context, s *sql.Session, rng *rand.Rand, id int64) error {
	src := rng.IntN(storeAccounts) + 1
	dst := rng.IntN(storeAccounts-1) + 1
	if dst >= src {
		dst++
	}
	amt := int64(rng.IntN(900) + 1)
	lo, hi := min(src, dst), max(src, dst)
	delta := func(acct int) int64 {
		if acct == src {
			return -amt
		}
		return amt
	}
	note := strings.Repeat("n", 300+rng.IntN(300))
	for attempt := 0; ; attempt++ {
		err := func() error {
			if _, err := sqlExec(ctx, s, "BEGIN"); err != nil {
				return err
			}
			if _, err := sqlExec(ctx, s, "UPDATE accounts SET balance = balance + ? WHERE id = ?", delta(lo), lo); err != nil {
				return err
			}
			if _, err := sqlExec(ctx, s, "UPDATE accounts SET balance = balance + ? WHERE id = ?", delta(hi), hi); err != nil {
				return err
			}
			if _, err := sqlExec(ctx, s, "INSERT INTO transfers VALUES (?, ?, ?, ?, 0, ?)", id, src, dst, amt, note); err != nil {
				return err
			}
			_, err := sqlExec(ctx, s, "COMMIT")
			return err
		}()
		if err == nil {
			return nil
		}
		if c := errCode(err); (c != 1213 && c != 1205) || attempt > 100 {
			return err
		}
		if _, err := sqlExec(ctx, s, "ROLLBACK"); err != nil {
			return err
		}
	}
}

// storeLog is what the children acknowledged, over every iteration.
type storeLog struct {
	transfers map[int64]bool // acknowledged DML transfer ids
	calls     map[int64]int  // CALL id -> transfers asked
	callAcked map[int64]bool
	flushes   int // "F" lines
	truncs    int // "T" lines
}

func newStoreLog() *storeLog {
	return &storeLog{transfers: map[int64]bool{}, calls: map[int64]int{}, callAcked: map[int64]bool{}}
}

// storeDeath is where a child's lines say it died: the last flush and
// truncation numbers it printed, whether a "T" came after its last "k"
// (it died between a checkpoint's flush and that CHECKPOINT's return),
// and whether a "T" came after its last "F" (the last flush it began
// had finished).
type storeDeath struct {
	lastF, lastT              int
	inTruncate, flushFinished bool
}

// read records a child's lines and says where it died.
func (sl *storeLog) read(t *testing.T, iter int, run childRun) storeDeath {
	t.Helper()
	var d storeDeath
	if strings.Contains(run.stderr, "DATA RACE") { // -race: the child dies before it would exit 66
		t.Errorf("iteration %d: the child reported a data race:\n%s", iter, run.stderr)
	}
	for _, l := range run.lines {
		f := strings.Fields(l)
		num := func(i int) int64 {
			if i >= len(f) {
				t.Fatalf("iteration %d: bad child line %q", iter, l)
			}
			n, err := strconv.ParseInt(f[i], 10, 64)
			if err != nil {
				t.Fatalf("iteration %d: bad child line %q", iter, l)
			}
			return n
		}
		switch f[0] {
		case "t":
			sl.transfers[num(1)] = true
		case "C":
			sl.calls[num(1)] = int(num(2))
		case "c":
			sl.callAcked[num(1)] = true
		case "F":
			d.lastF, d.flushFinished = int(num(1)), false
			sl.flushes++
		case "T":
			d.lastT, d.inTruncate, d.flushFinished = int(num(1)), true, true
			sl.truncs++
		case "K":
		case "k":
			d.inTruncate = false
		default: // "err ...", "fatal ...": the child must only die by SIGKILL
			t.Errorf("iteration %d: child reported %q; stderr:\n%s", iter, l, run.stderr)
		}
	}
	return d
}

// checkStoreBank checks the reopened bank: every acknowledged transfer is
// there; each account's balance is its initial one moved by exactly the
// transfers present (no transfer half applied); the total is exact; the
// secondary index on src finds what the scan finds; each CALL's transfers
// are a prefix 1..m, whole for a CALL that replied. It returns how many
// transfers are present.
func checkStoreBank(t *testing.T, s *sql.Session, sl *storeLog, when string) int {
	t.Helper()
	ctx := context.Background()
	r, err := sqlExec(ctx, s, "SELECT id, src, dst, amount, cid FROM transfers")
	if err != nil {
		t.Fatalf("%s: %v", when, err)
	}
	want := map[int64]int64{}
	bySrc := map[int64]int64{}
	present := map[int64]bool{}
	callMax, callCount := map[int64]int64{}, map[int64]int64{}
	for i := int64(1); i <= storeAccounts; i++ {
		want[i] = storeInitial
	}
	for _, row := range r.Rows {
		var v [5]int64
		for j := range v {
			if v[j], err = strconv.ParseInt(row[j].String(), 10, 64); err != nil {
				t.Fatalf("%s: transfer row %v: %v", when, row, err)
			}
		}
		id, src, dst, amt, cid := v[0], v[1], v[2], v[3], v[4]
		present[id] = true
		want[src] -= amt
		want[dst] += amt
		bySrc[src]++
		if cid != 0 {
			callMax[cid] = max(callMax[cid], id-cid*100)
			callCount[cid]++
		}
	}
	for id := range sl.transfers {
		if !present[id] {
			t.Errorf("%s: acknowledged transfer %d is missing", when, id)
		}
	}
	for cid, m := range callMax {
		if callCount[cid] != m {
			t.Errorf("%s: CALL %d: %d transfers present, the last is step %d (not a clean prefix)", when, cid, callCount[cid], m)
		}
		if n, ok := sl.calls[cid]; ok && m > int64(n) {
			t.Errorf("%s: CALL %d: step %d present, it was asked for %d", when, cid, m, n)
		}
	}
	for cid := range sl.callAcked {
		if callMax[cid] != int64(sl.calls[cid]) {
			t.Errorf("%s: replied CALL %d: %d of its %d transfers present", when, cid, callMax[cid], sl.calls[cid])
		}
	}
	bal, err := sqlExec(ctx, s, "SELECT id, balance FROM accounts ORDER BY id")
	if err != nil {
		t.Fatalf("%s: %v", when, err)
	}
	if len(bal.Rows) != storeAccounts {
		t.Fatalf("%s: %d accounts, want %d", when, len(bal.Rows), storeAccounts)
	}
	var total int64
	for _, row := range bal.Rows {
		id, _ := strconv.ParseInt(row[0].String(), 10, 64)
		b, err := strconv.ParseInt(row[1].String(), 10, 64)
		if err != nil {
			t.Fatalf("%s: balance %v: %v", when, row, err)
		}
		total += b
		if b != want[id] {
			t.Errorf("%s: account %d holds %d, but the transfers present make it %d", when, id, b, want[id])
		}
	}
	if total != storeTotal {
		t.Errorf("%s: total of the balances is %d, want %d", when, total, storeTotal)
	}
	if got := queryInt(t, s, "SELECT SUM(balance) FROM accounts"); got != storeTotal {
		t.Errorf("%s: SUM(balance) = %d, want %d", when, got, storeTotal)
	}
	for src := int64(1); src <= storeAccounts; src++ {
		if got := queryInt(t, s, "SELECT COUNT(*) FROM transfers WHERE src = ?", src); got != bySrc[src] {
			t.Errorf("%s: the index on src finds %d transfers from %d, the scan %d", when, got, src, bySrc[src])
		}
	}
	return len(r.Rows)
}

// storeMoreWork runs n acknowledged transfers and a checkpoint in the
// parent (ids from base), recording them in sl.
func storeMoreWork(t *testing.T, s *sql.Session, sl *storeLog, base int64, n int) {
	t.Helper()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(uint64(base), 3))
	for i := int64(0); i < int64(n); i++ {
		if err := storeTransfer(ctx, s, rng, base+i); err != nil {
			t.Fatalf("transfer after recovery: %v", err)
		}
		sl.transfers[base+i] = true
	}
	if _, err := sqlExec(ctx, s, "CHECKPOINT"); err != nil {
		t.Fatalf("checkpoint after recovery: %v", err)
	}
}
