package enginetest

import (
	"bufio"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// childRun is what superviseChild saw of one crash child.
type childRun struct {
	lines    []string // printed after "ready", without the "@ " prefix
	stderr   string
	ready    bool // it printed "ready"
	parent   bool // the parent killed it (watch, or the timeout)
	timedOut bool
	sigkill  bool // it died of SIGKILL (its own or the parent's)
}

// superviseChild runs the crash child in mode with the extra environment
// env. Each line it prints after "ready" goes to watch, with a kill that
// SIGKILLs the child; a child that kills itself (a hook of its engine)
// just ends. After timeout the parent kills it.
func superviseChild(t *testing.T, mode, dir string, iter int, env []string, timeout time.Duration, watch func(line string, kill func())) childRun {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	cmd.Env = append(append(os.Environ(), envChild+"="+mode, envDir+"="+dir, envIter+"="+strconv.Itoa(iter)), env...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errOut strings.Builder
	cmd.Stderr = &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var run childRun
	var killMu sync.Mutex
	kill := func() {
		killMu.Lock()
		defer killMu.Unlock()
		if !run.parent {
			run.parent = true
			cmd.Process.Signal(syscall.SIGKILL)
		}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			l, ok := strings.CutPrefix(sc.Text(), "@ ")
			if !ok {
				continue
			}
			if l == "ready" && !run.ready {
				run.ready = true
				continue
			}
			run.lines = append(run.lines, l)
			if watch != nil && run.ready {
				watch(l, kill)
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(timeout):
		run.timedOut = true
		kill()
		<-done
	}
	cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok {
		run.sigkill = ws.Signaled() && ws.Signal() == syscall.SIGKILL
	}
	killMu.Lock()
	defer killMu.Unlock()
	run.stderr = errOut.String()
	return run
}
