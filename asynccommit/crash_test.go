package asynccommit

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/plrun/plrun/wal"
)

const (
	crashDirEnv  = "PLRUN_ASYNCCOMMIT_CRASH_DIR"
	crashIterEnv = "PLRUN_ASYNCCOMMIT_CRASH_ITER"
)

// crashPayload is the record a crash child writes for (iteration, worker, i).
func crashPayload(iter, worker, i int) string {
	return fmt.Sprintf("it%d-w%d-%d-", iter, worker, i) + strings.Repeat("p", (iter*31+worker*7+i)%300)
}

// TestCrashChild is the child process of TestCrashRecovery: it commits from
// many goroutines under mode 1 and prints "lsn iter worker i" for each commit
// only after WaitDurable acknowledged it, until it is killed.
func TestCrashChild(t *testing.T) {
	dir := os.Getenv(crashDirEnv)
	if dir == "" {
		t.Skip("only runs as the child of TestCrashRecovery")
	}
	iter, _ := strconv.Atoi(os.Getenv(crashIterEnv))
	log, err := wal.Open(dir, wal.Options{SegmentSize: 32 << 10})
	if err != nil {
		fmt.Fprintln(os.Stderr, "open:", err)
		os.Exit(2)
	}
	p := Open(log, Options{})
	var outMu sync.Mutex
	for w := 0; w < 8; w++ {
		go func() {
			for i := 0; ; i++ {
				lsn, err := p.Append(wal.KindCommit, []byte(crashPayload(iter, w, i)))
				if err == nil {
					err = p.WaitDurable(context.Background(), lsn)
				}
				if err != nil {
					fmt.Fprintln(os.Stderr, "commit:", err)
					os.Exit(3)
				}
				line := fmt.Sprintf("%d %d %d %d\n", lsn, iter, w, i)
				outMu.Lock()
				os.Stdout.WriteString(line) // unbuffered: printed means acknowledged
				outMu.Unlock()
			}
		}()
	}
	time.Sleep(20 * time.Second) // the parent kills us long before this
	os.Exit(4)
}

type ackedCommit struct {
	lsn     uint64
	payload string
}

func TestCrashRecovery(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns child processes")
	}
	dir := t.TempDir()
	var acked []ackedCommit
	for iter := 0; iter < 15; iter++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), crashDirEnv+"="+dir, crashIterEnv+"="+strconv.Itoa(iter))
		var stderr strings.Builder
		cmd.Stderr = &stderr
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := make(chan []ackedCommit)
		go func() {
			var got []ackedCommit
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				var lsn uint64
				var it, w, i int
				if n, _ := fmt.Sscanf(sc.Text(), "%d %d %d %d", &lsn, &it, &w, &i); n == 4 {
					got = append(got, ackedCommit{lsn, crashPayload(it, w, i)})
				}
			}
			lines <- got
		}()
		time.Sleep(time.Duration(100+rand.IntN(200)) * time.Millisecond)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		got := <-lines
		err = cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
			t.Fatalf("iteration %d: child exited on its own (%v): %s", iter, err, stderr.String())
		}
		acked = append(acked, got...)

		replayed := map[uint64]string{}
		log, err := wal.Open(dir, wal.Options{SegmentSize: 32 << 10})
		if err != nil {
			t.Fatalf("iteration %d: reopen: %v", iter, err)
		}
		var next uint64 = 1
		err = log.Replay(0, func(r wal.Record) error {
			if r.LSN != next {
				return fmt.Errorf("replayed lsn %d, want %d (not a gap-free prefix)", r.LSN, next)
			}
			next++
			replayed[r.LSN] = string(r.Payload)
			return nil
		})
		log.Close()
		if err != nil {
			t.Fatalf("iteration %d: %v", iter, err)
		}
		for _, c := range acked {
			if p, ok := replayed[c.lsn]; !ok || p != c.payload {
				t.Fatalf("iteration %d: acknowledged lsn %d lost or changed after SIGKILL (present %t)", iter, c.lsn, ok)
			}
		}
		t.Logf("iteration %d: %d acknowledged this run, %d records in the log", iter, len(got), len(replayed))
	}
	if len(acked) == 0 {
		t.Fatal("no child acknowledged anything; the test checked nothing")
	}
}
