package enginetest

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/plrun/plrun/engine"
	"github.com/plrun/plrun/runtime/builtin"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/storage/kv"
	"github.com/plrun/plrun/wal"
)

// envUpgradeChild names the data folder TestUpgradeChild opens.
const envUpgradeChild = "PLRUN_ENGINETEST_UPGRADE_DIR"

// TestUpgradeChild is the child of TestUpgradeCrash: it opens an
// old-format folder and SIGKILLs itself as the table store starts its
// first flush, the upgrade's (its rows and format marker committed, not
// yet on disk). It does nothing unless started by that test.
func TestUpgradeChild(t *testing.T) {
	dir := os.Getenv(envUpgradeChild)
	if dir == "" {
		t.Skip("only runs as the child of TestUpgradeCrash")
	}
	_, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: dir, OnStoreFlush: func() {
		os.Stdout.WriteString("@ flush\n")
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {} // the signal is on its way
	}})
	os.Stdout.WriteString("@ opened without a flush\n")
	if err != nil {
		os.Stdout.WriteString("@ " + err.Error() + "\n")
	}
	os.Exit(5)
}

// TestUpgradeCrash: an upgrade killed as its store flush starts leaves
// the old snapshot (removed only once the store is flushed) and a store
// without the format marker; one that had already written some tables'
// rows to disk (a large folder's fill commits batches as it goes) leaves
// them too, as of the snapshot, not the log after it. The next open must
// upgrade the folder completely either way, reading none of what the
// interrupted attempt left; and a crash after the flush but before the
// snapshot's removal leaves a snapshot the next open ignores and removes.
func TestUpgradeCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test skipped in -short mode")
	}
	checks := readFixtureChecks(t)
	dir := copyFixture(t)
	snaps := snapshotFiles(t, dir)
	if len(snaps) != 1 {
		t.Fatal("the fixture has no snapshot")
	}
	snapshot, err := os.ReadFile(snaps[0])
	if err != nil {
		t.Fatal(err)
	}

	killUpgradeAtFlush(t, dir)
	if m := snapshotFiles(t, dir); len(m) != 1 {
		t.Fatalf("after a crash before the store's flush the snapshot must stay: %v", m)
	}
	if storeInitialized(t, dir) {
		t.Fatal("the store has its format marker although its flush never finished")
	}
	n := writePartialUpgrade(t, dir)

	db, lb := openLogged(t, dir)
	s := db.Session()
	runFixtureChecks(t, s, "upgrade after an interrupted one", checks, nil)
	s.Close()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	checkUpgradeLine(t, lb.String())
	if m := snapshotFiles(t, dir); len(m) != 0 {
		t.Errorf("snapshots left after the upgrade: %v", m)
	}
	if !storeInitialized(t, dir) {
		t.Fatal("no format marker after the upgrade")
	}

	// A crash between the store's flush and the snapshot's removal.
	if err := os.WriteFile(snaps[0], snapshot, 0o640); err != nil {
		t.Fatal(err)
	}
	db, lb = openLogged(t, dir)
	s = db.Session()
	runFixtureChecks(t, s, "reopened with the old snapshot left beside the store", checks, nil)
	s.Close()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if l := lb.String(); strings.Contains(l, "snapshot loaded") || strings.Contains(l, "moved into the table store") {
		t.Errorf("an upgraded folder was upgraded again from a leftover snapshot:\n%s", l)
	}
	if m := snapshotFiles(t, dir); len(m) != 0 {
		t.Errorf("the leftover snapshot is still there: %v", m)
	}
	if !strings.Contains(lb.String(), "snapshot-00000000000000000019.plr") {
		t.Errorf("the leftover snapshot's removal is not in the error log:\n%s", lb.String())
	}
	t.Logf("killed at the upgrade's flush; %d rows of an interrupted fill left in the store; upgraded completely", n)
}

// killUpgradeAtFlush runs TestUpgradeChild on dir and checks it died by
// its SIGKILL at the flush.
func killUpgradeAtFlush(t *testing.T, dir string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestUpgradeChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), envUpgradeChild+"="+dir)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL || !strings.Contains(out.String(), "@ flush\n") {
			t.Fatalf("the child was to die by SIGKILL at the store's flush: %v; stdout:\n%s\nstderr:\n%s", err, out.String(), errOut.String())
		}
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		<-done
		t.Fatalf("the upgrading child did not finish; stdout:\n%s", out.String())
	}
}

// writePartialUpgrade leaves in dir's store what an upgrade of a large
// folder killed halfway leaves: the rows and index entries of its first
// tables (in catalog order) as of the snapshot — the log after it not yet
// applied — in batches committed at applied LSN 0, flushed, without the
// format marker or the catalog header. It returns the rows written.
func writePartialUpgrade(t *testing.T, dir string) int64 {
	t.Helper()
	_, r, err := wal.OpenLatestSnapshot(dir)
	if err != nil || r == nil {
		t.Fatalf("reading the snapshot: %v", err)
	}
	cat, _, err := storage.ReadSnapshot(r)
	r.Close()
	if err != nil {
		t.Fatal(err)
	}
	store, err := kv.Open(filepath.Join(dir, "store"), kv.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	cat.SetStore(store)
	var rows int64
	tables := cat.AllTables()
	for _, tb := range tables[:len(tables)/2+1] {
		b := store.NewBatch()
		b, n, err := tb.FillStore(b, storage.Newest, func(full *kv.Batch) (*kv.Batch, error) {
			return store.NewBatch(), full.Commit(0)
		})
		if err == nil {
			err = b.Commit(0)
		}
		if err != nil {
			t.Fatal(err)
		}
		rows += n
	}
	if _, err := store.Flush(); err != nil {
		t.Fatal(err)
	}
	if ok, _ := store.Initialized(); ok || rows == 0 {
		t.Fatalf("the partial upgrade wrote %d rows, format marker %v", rows, ok)
	}
	return rows
}
