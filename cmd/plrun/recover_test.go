package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRecoverDamagedLog: a flipped bit in the log's first entry, with
// intact entries after it. plrun refuses to open and points at `plrun
// recover`; `recover` names what a cut drops and changes nothing;
// `recover --truncate-damaged` cuts, and plrun opens again: the entries
// cut were already in the table store (a clean exit flushed it), so the
// rows are there and new LSNs follow the store's.
func TestRecoverDamagedLog(t *testing.T) {
	dir := t.TempDir()
	if st, _, errOut := plrunCLI(t, "", "--data", dir, "--create", "-e",
		"create table t (id int primary key); insert into t values (1); insert into t values (2)"); st != 0 {
		t.Fatalf("setup: %s", errOut)
	}
	if st, out, _ := plrunCLI(t, "", "recover", "--data", dir); st != 0 || !strings.Contains(out, "intact") {
		t.Fatalf("recover on a sound log: %d %q", st, out)
	}
	seg := filepath.Join(dir, "wal", "00000000000000000001")
	b, err := os.ReadFile(seg)
	if err != nil {
		t.Fatal(err)
	}
	b[20] ^= 0x01
	if err := os.WriteFile(seg, b, 0o640); err != nil {
		t.Fatal(err)
	}
	st, _, errOut := plrunCLI(t, "", "--data", dir, "-e", "select count(*) from t")
	if st != 1 || !strings.Contains(errOut, "log damaged in "+seg+" at offset 0") || !strings.Contains(errOut, "plrun recover --data "+dir) {
		t.Fatalf("open of a damaged log: %d %q", st, errOut)
	}
	st, out, _ := plrunCLI(t, "", "recover", "--data", dir)
	if st != 1 || !strings.Contains(out, "damaged: "+seg+" at offset 0") || !strings.Contains(out, "drops lsn 1..3") {
		t.Fatalf("recover: %d %q", st, out)
	}
	if after, _ := os.ReadFile(seg); len(after) != len(b) {
		t.Fatal("recover without --truncate-damaged changed the log")
	}
	if st, out, _ := plrunCLI(t, "", "recover", "--data", dir, "--truncate-damaged"); st != 0 || !strings.Contains(out, "the log now ends at lsn 0") {
		t.Fatalf("recover --truncate-damaged: %d %q", st, out)
	}
	if st, out, errOut := plrunCLI(t, "", "--data", dir, "-N", "-e", "insert into t values (3); select count(*) from t"); st != 0 || out != "3\n" {
		t.Fatalf("open after the cut: %d %q %q", st, out, errOut)
	}
}
