package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDataFolderWithServeFiles: the certificates and RSA keys `plrun
// serve` generates into its data folder are the database's own, so the
// folder opens again (a restarted server, the REPL on it); a stray .pem
// of another name is still foreign.
func TestDataFolderWithServeFiles(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"LOCK", "ca.pem", "ca-key.pem", "server-cert.pem", "server-key.pem", "private_key.pem", "public_key.pem", "server-key.pem.tmp"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := prepareDataDir(dir, false); err != nil {
		t.Fatalf("a served data folder: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "client.pem"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := prepareDataDir(dir, false); err == nil {
		t.Fatal("client.pem taken for plrun's own")
	}
}
