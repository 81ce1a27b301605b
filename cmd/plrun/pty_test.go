//go:build linux

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
)

// ptyREPL is the plrun binary's REPL on a pseudo-terminal, as a user at a
// terminal runs it: line editing, completion and Ctrl-C go through
// readline and the terminal driver for real.
type ptyREPL struct {
	t    *testing.T
	tty  *os.File
	cmd  *exec.Cmd
	home string
	mu   sync.Mutex
	out  bytes.Buffer
	done chan struct{}
}

func startPtyREPL(t *testing.T, dir string) *ptyREPL {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "plrun")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "--data", dir)
	home := t.TempDir()
	cmd.Env = append(os.Environ(), "HOME="+home, "TERM=xterm")
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 160})
	if err != nil {
		t.Fatal(err)
	}
	r := &ptyREPL{t: t, tty: tty, cmd: cmd, home: home, done: make(chan struct{})}
	go func() {
		defer close(r.done)
		buf := make([]byte, 4096)
		for {
			n, err := tty.Read(buf)
			r.mu.Lock()
			r.out.Write(buf[:n])
			r.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		tty.Close()
	})
	return r
}

// expect waits until the output since the last expect holds want; it is a
// bug (a hang) if it does not come within a generous bound.
func (r *ptyREPL) expect(want string) string {
	r.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		r.mu.Lock()
		s := r.out.String()
		if i := strings.Index(s, want); i >= 0 {
			r.out.Next(i + len(want))
			r.mu.Unlock()
			return s[:i+len(want)]
		}
		r.mu.Unlock()
		time.Sleep(10 * time.Millisecond)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.t.Fatalf("never saw %q; the terminal shows:\n%s", want, r.out.String())
	return ""
}

func (r *ptyREPL) send(s string) {
	r.t.Helper()
	if _, err := r.tty.WriteString(s); err != nil {
		r.t.Fatal(err)
	}
}

func TestREPLOnATerminal(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	r := startPtyREPL(t, dir)
	r.expect("Created a new database at " + dir)
	r.expect("plrun [test]> ")

	r.send("create table sbtest1 (id int primary key, k int);\r")
	r.expect("Query OK, 0 rows affected")
	r.send("insert into sbtest1 values (1, 41), (2, 0);\r")
	r.expect("Query OK, 2 rows affected")

	// Tab completes keywords and table names.
	r.send("sel\t id, k fr\t sbt\t where id = 1\\G\r")
	out := r.expect("1 row in set")
	if !strings.Contains(out, "select id, k from sbtest1 where id = 1") || !strings.Contains(out, " k: 41") {
		t.Fatalf("completion or \\G: %q", out)
	}

	// DELIMITER, and a statement over several lines.
	r.send("delimiter //\r")
	r.expect("plrun [test]> ")
	r.send("select 'a;b' as x;\rselect 2 as y//\r")
	r.expect("| a;b |")
	r.expect("| 2 |")
	r.send("delimiter ;\r")
	r.expect("plrun [test]> ")

	// Ctrl-C cancels the running statement and the REPL goes on.
	r.send("select sleep(30);\r")
	time.Sleep(300 * time.Millisecond)
	r.send("\x03")
	r.expect("query aborted")
	r.expect("plrun [test]> ")
	r.send("use information_schema_does_not_exist\r")
	r.expect("ERROR 1049")
	r.send("create database d2;\r")
	r.expect("Query OK")
	r.send("use d2\r")
	r.expect("Database changed")
	r.expect("plrun [d2]> ")
	r.send("exit\r")
	r.expect("Bye")
	select {
	case <-r.done:
	case <-time.After(20 * time.Second):
		t.Fatal("plrun did not exit")
	}
	hist, err := os.ReadFile(filepath.Join(r.home, ".plrun_history"))
	if err != nil {
		t.Fatal(err)
	}
	// History holds whole statements, one per entry, not physical lines.
	if !strings.Contains(string(hist), "select 'a;b' as x; select 2 as y//\n") {
		t.Errorf("history: %q", hist)
	}
}
