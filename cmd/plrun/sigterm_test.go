package main

import (
	gosql "database/sql"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	_ "github.com/go-sql-driver/mysql"

	"github.com/plrun/plrun/internal/mysqlload"
)

// TestServeSIGTERMUnderLoad: clients update rows through `plrun serve`
// while it gets SIGTERM. The process exits 0; every update a client was
// told succeeded is in the data afterwards, and no other; every client's
// last statement ended in an answer (1053) or a closed connection.
func TestServeSIGTERMUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server process")
	}
	dir := newDB(t, "create table f (id int primary key, k int)")
	const clients = 8
	var rows []string
	for i := 1; i <= clients; i++ {
		rows = append(rows, fmt.Sprintf("(%d, 0)", i))
	}
	if st, _, errOut := plrunCLI(t, "", "--data", dir, "-e", "insert into f values "+strings.Join(rows, ",")); st != 0 {
		t.Fatal(errOut)
	}
	bin := filepath.Join(t.TempDir(), "plrun")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	var serverLog strings.Builder
	srv := exec.Command(bin, "--data", dir, "serve", "--listen", addr, "--user", "root", "--password", "root")
	srv.Stdout, srv.Stderr = &serverLog, &serverLog
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer srv.Process.Kill()
	dsn := "root:root@tcp(" + addr + ")/test?timeout=10s"
	for start := time.Now(); ; time.Sleep(50 * time.Millisecond) {
		db, _ := gosql.Open("mysql", dsn)
		err := db.Ping()
		db.Close()
		if err == nil {
			break
		}
		if time.Since(start) > 20*time.Second {
			t.Fatalf("server never answered: %v\n%s", err, serverLog.String())
		}
	}
	load := mysqlload.StartUpdaters(dsn, clients)
	time.Sleep(500 * time.Millisecond)
	if err := srv.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := srv.Wait(); err != nil {
		t.Fatalf("serve after SIGTERM: %v\n%s", err, serverLog.String())
	}
	acked, endings := load.Wait()
	st, out, errOut := plrunCLI(t, "", "--data", dir, "-N", "-e", "select k from f order by id")
	if st != 0 {
		t.Fatal(errOut)
	}
	total := 0
	for i, k := range strings.Fields(out) {
		if want := fmt.Sprint(acked[i+1]); k != want {
			t.Errorf("row %d: k = %s, want its %s acknowledged updates", i+1, k, want)
		}
		total += acked[i+1]
	}
	for ending := range endings {
		if ending != "error 1053" && ending != "lost connection" {
			t.Errorf("a client ended with %s", ending)
		}
	}
	if total == 0 {
		t.Fatalf("no update was acknowledged; server log:\n%s", serverLog.String())
	}
	t.Logf("%d updates acknowledged before SIGTERM; clients ended with %v", total, endings)
	_ = os.Remove(bin)
}
