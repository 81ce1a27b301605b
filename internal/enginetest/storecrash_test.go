package enginetest

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/plrun/plrun/engine"
)

// The table store's crash tests: a child runs the bank of
// storechild_test.go (DML transfers, CALLs whose commits are
// asynchronous, checkpoints every 100 ms and whenever 1 MB of log has
// grown) and dies by SIGKILL during a store flush, between a
// checkpoint's flush and its log truncation, or inside the truncation.
// The parent reopens the folder and checks the bank (checkStoreBank),
// then commits more transfers, closes, reopens and checks again.

// storeIterations is the iterations of each store crash test.
func storeIterations(short int) int {
	if soak() {
		return 40
	}
	return short
}

// setupStoreBank creates the bank in a new data folder.
func setupStoreBank(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("crash test skipped in -short mode")
	}
	dir := t.TempDir()
	e, err := engine.Open(storeConfig(dir, nil))
	if err != nil {
		t.Fatal(err)
	}
	s := e.NewSession()
	ctx := context.Background()
	for _, q := range strings.Split(storeBankDDL, ";") {
		mustSQL(t, s, q)
	}
	for i := 1; i <= storeAccounts; i++ {
		if _, err := sqlExec(ctx, s, "INSERT INTO accounts VALUES (?, ?)", i, storeInitial); err != nil {
			t.Fatal(err)
		}
	}
	mustSQL(t, s, storeProcSQL)
	s.Close()
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

// reopenStoreBank reopens dir after a kill and checks the bank; then it
// commits more transfers (ids from base), closes cleanly, reopens and
// checks again. It returns how many transfers were present after the
// kill.
func reopenStoreBank(t *testing.T, dir string, sl *storeLog, iter int, base int64) int {
	t.Helper()
	e, err := engine.Open(storeConfig(dir, nil))
	if err != nil {
		t.Fatalf("iteration %d: reopen after SIGKILL: %v", iter, err)
	}
	s := e.NewSession()
	n := checkStoreBank(t, s, sl, "iteration "+strconv.Itoa(iter)+" after the kill")
	storeMoreWork(t, s, sl, base, 20)
	s.Close()
	if err := e.Close(); err != nil {
		t.Fatalf("iteration %d: close: %v", iter, err)
	}
	e, err = engine.Open(storeConfig(dir, nil))
	if err != nil {
		t.Fatalf("iteration %d: second reopen: %v", iter, err)
	}
	s = e.NewSession()
	checkStoreBank(t, s, sl, "iteration "+strconv.Itoa(iter)+" after more work and a clean reopen")
	s.Close()
	if err := e.Close(); err != nil {
		t.Fatalf("iteration %d: close: %v", iter, err)
	}
	return n
}

// storeVariant is the settings of iteration it: ELR and
// innodb_flush_log_at_trx_commit (1: acknowledged after the fsync, 2:
// after the write, which a SIGKILL does not undo) alternate out of step.
func storeVariant(it int) (elr, trx string) {
	elr, trx = "OFF", "1"
	if it%2 == 0 {
		elr = "ON"
	}
	if it%4 >= 2 {
		trx = "2"
	}
	return elr, trx
}

// TestCrashDuringStoreFlush kills the child as the store begins its Nth
// flush (N = 1..3, the first iteration at the first flush), in the hook
// itself (nothing of the flush on disk) or 0-30 ms later (inside the
// flush, or in what follows it).
func TestCrashDuringStoreFlush(t *testing.T) {
	dir := setupStoreBank(t)
	sl := newStoreLog()
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 17))
	iterations := storeIterations(6)
	first, later, delayed, midFlush, present := 0, 0, 0, 0, 0
	for it := 1; it <= iterations; it++ {
		elr, trx := storeVariant(it)
		spec := storeSpec{elr: elr, trxCommit: trx, kill: "flush", n: 1 + rng.IntN(3)}
		if it == 1 {
			spec.n = 1
		}
		if it%2 == 1 && it > 1 {
			spec.delay = time.Duration(rng.IntN(30_000)) * time.Microsecond
		}
		run := superviseChild(t, "store", dir, it, []string{envStore + "=" + spec.env()}, 40*time.Second, nil)
		d := sl.read(t, it, run)
		switch {
		case run.timedOut:
			t.Fatalf("iteration %d (%+v): the child did not die at flush %d within 40 s (last flush %d); stderr:\n%s", it, spec, spec.n, d.lastF, run.stderr)
		case !run.sigkill || run.parent:
			t.Fatalf("iteration %d (%+v): the child ended without its own SIGKILL; stderr:\n%s", it, spec, run.stderr)
		case d.lastF < spec.n, spec.delay == 0 && (d.lastF != spec.n || d.flushFinished):
			t.Fatalf("iteration %d (%+v): killed after flush %d began (finished: %v)", it, spec, d.lastF, d.flushFinished)
		}
		if spec.delay > 0 && !d.flushFinished {
			midFlush++
		}
		if spec.n == 1 {
			first++
		} else {
			later++
		}
		if spec.delay > 0 {
			delayed++
		}
		present = reopenStoreBank(t, dir, sl, it, 1_000_000_000_000+int64(it)*1000)
		if t.Failed() {
			t.Fatalf("iteration %d (%+v) failed", it, spec)
		}
	}
	t.Logf("%d SIGKILLs at a store flush (%d at the first, %d later; %d 0-30 ms after it began, %d of them before the flush's checkpoint reached its truncation); %d flushes, %d truncations seen; acknowledged: %d transfers, %d CALLs (of %d); %d transfers present at the end",
		iterations, first, later, delayed, midFlush, sl.flushes, sl.truncs, len(sl.transfers), len(sl.callAcked), len(sl.calls), present)
}

// TestCrashDuringLogTruncation kills the child after a checkpoint's store
// flush and before its log truncation (hook), and inside the truncation
// (inside).
func TestCrashDuringLogTruncation(t *testing.T) {
	t.Run("hook", func(t *testing.T) {
		dir := setupStoreBank(t)
		sl := newStoreLog()
		rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 19))
		iterations := storeIterations(5)
		for it := 1; it <= iterations; it++ {
			elr, trx := storeVariant(it)
			spec := storeSpec{elr: elr, trxCommit: trx, kill: "truncate", n: 1 + rng.IntN(3)}
			run := superviseChild(t, "store", dir, it, []string{envStore + "=" + spec.env()}, 40*time.Second, nil)
			d := sl.read(t, it, run)
			switch {
			case run.timedOut:
				t.Fatalf("iteration %d (%+v): the child did not die at truncation %d within 40 s; stderr:\n%s", it, spec, spec.n, run.stderr)
			case !run.sigkill || run.parent || d.lastT != spec.n:
				t.Fatalf("iteration %d (%+v): the child ended without its own SIGKILL at truncation %d (last %d); stderr:\n%s", it, spec, spec.n, d.lastT, run.stderr)
			}
			reopenStoreBank(t, dir, sl, it, 1_000_000_000_000+int64(it)*1000)
			if t.Failed() {
				t.Fatalf("iteration %d (%+v) failed", it, spec)
			}
		}
		t.Logf("%d SIGKILLs after a checkpoint's flush, before its truncation; acknowledged: %d transfers, %d CALLs", iterations, len(sl.transfers), len(sl.callAcked))
	})
	// inside: the child checkpoints back to back (no automatic ones) and
	// prints "T n" from Config.BeforeTruncate, before the truncation, and
	// "k n" when its CHECKPOINT returns; the parent SIGKILLs it 0-3 ms
	// after seeing the Nth "T". A kill with no "k" after its last "T"
	// landed between the flush and the CHECKPOINT's return, i.e. in
	// wal.Log.TruncateBefore (tidwall's TruncateFront: a START file
	// written and fsynced, the segments before it removed, the START file
	// renamed) or in the few statements around it; a START file (or its
	// TEMP) left in the log folder proves a kill inside TruncateFront
	// itself. The test fails if no kill of the run landed in the window.
	t.Run("inside", func(t *testing.T) {
		dir := setupStoreBank(t)
		sl := newStoreLog()
		rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 23))
		iterations := storeIterations(8)
		inWindow, inFront := 0, 0
		for it := 1; it <= iterations; it++ {
			elr, trx := storeVariant(it)
			spec := storeSpec{elr: elr, trxCommit: trx, kill: "parent", n: 2 + rng.IntN(6)}
			delay := time.Duration(rng.IntN(3000)) * time.Microsecond
			target := "T " + strconv.Itoa(spec.n) + " "
			run := superviseChild(t, "store", dir, it, []string{envStore + "=" + spec.env()}, 40*time.Second, func(l string, kill func()) {
				if strings.HasPrefix(l, target) {
					time.AfterFunc(delay, kill)
				}
			})
			d := sl.read(t, it, run)
			if run.timedOut || !run.parent || d.lastT < spec.n {
				t.Fatalf("iteration %d (%+v): the child did not reach truncation %d (last %d) within 40 s; stderr:\n%s", it, spec, spec.n, d.lastT, run.stderr)
			}
			front := leftoverTruncation(t, filepath.Join(dir, "wal"))
			if d.inTruncate {
				inWindow++
			}
			if front != "" {
				inFront++
				t.Logf("iteration %d: killed inside TruncateFront (%s left)", it, front)
			}
			reopenStoreBank(t, dir, sl, it, 1_000_000_000_000+int64(it)*1000)
			if t.Failed() {
				t.Fatalf("iteration %d (%+v, killed %v after \"T %d\") failed", it, spec, delay, spec.n)
			}
		}
		t.Logf("%d SIGKILLs 0-3 ms after a checkpoint's flush: %d before its CHECKPOINT returned, %d of them inside TruncateFront; %d truncations seen; acknowledged: %d transfers, %d CALLs",
			iterations, inWindow, inFront, sl.truncs, len(sl.transfers), len(sl.callAcked))
		if inWindow == 0 {
			t.Errorf("no SIGKILL of %d landed between a checkpoint's flush and its return", iterations)
		}
	})
}

// leftoverTruncation names a file tidwall's TruncateFront leaves while it
// runs (a START segment, or its TEMP), or "".
func leftoverTruncation(t *testing.T, walDir string) string {
	t.Helper()
	des, err := os.ReadDir(walDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, de := range des {
		if n := de.Name(); strings.HasSuffix(n, ".START") || strings.HasSuffix(n, ".TEMP") {
			return n
		}
	}
	return ""
}
