package main

import (
	"fmt"
	"io"
	"time"

	"github.com/plrun/plrun/bench"
)

// benchDirty is `plrun bench dirty`: updates until the log holds
// --log-mb since the last checkpoint, then the process SIGKILLs itself,
// leaving that much log for `plrun bench open` to replay.
func benchDirty(args []string, stdout, stderr io.Writer) int {
	b := newDataBenchFlags("dirty", "the data folder plrun bench load made (required)", stdout, stderr)
	logMB := b.fs.Int("log-mb", 64, "MiB of log since the last checkpoint to leave behind")
	threads := b.fs.Int("threads", 8, "sessions running UPDATE sbtest1 SET k=k+1 WHERE id=? (autocommit)")
	timeout := b.fs.Duration("timeout", 10*time.Minute, "give up (exit 1, no crash) if the log is not that large by then")
	if status, ok := b.parse(args); !ok {
		return status
	}
	if *b.dataDir == "" || *logMB <= 0 || *threads <= 0 || *timeout <= 0 {
		fmt.Fprintf(stderr, "%s: --data DIR is required; --log-mb, --threads and --timeout must be > 0\n", b.fs.Name())
		return 2
	}
	crash := func(r *bench.DirtyResult) {
		if *b.jsonOut {
			printJSON(stdout, r)
		} else {
			printDirty(stdout, r)
		}
		fmt.Fprintf(stderr, "%s: SIGKILL now, %d sessions still updating\n", b.fs.Name(), r.Threads)
		if err := killSelf(); err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", b.fs.Name(), err)
		}
	}
	_, err := bench.RunDirty(background, bench.DirtyConfig{
		Dir: *b.dataDir, LogBytes: int64(*logMB) << 20, Threads: *threads, Settings: b.openSettings(),
		Seed: 1, Timeout: *timeout, Progress: stderr,
	}, crash)
	if err != nil {
		return b.fail(err)
	}
	// killSelf returned: this system cannot SIGKILL; the folder was closed cleanly.
	return 1
}

func printDirty(w io.Writer, r *bench.DirtyResult) {
	fmt.Fprintf(w, "dirty: %d sessions, UPDATE sbtest1 SET k=k+1 WHERE id=? over ids 1..%d, no checkpoint\n", r.Threads, r.MaxID)
	fmt.Fprintf(w, "  log since the last checkpoint %.1f MiB (%.1f at start), %d updates acknowledged in %s (%.0f/s), %d failed\n",
		bench.MB(r.LogBytes), bench.MB(r.LogStart), r.Updates, runLength(r.Seconds), r.UpdatesPS, r.Failed)
	fmt.Fprintf(w, "  SUM(k) before %d: after recovery it is at least %d\n", r.KSumBefore, r.KSumBefore+r.Updates)
	if r.FirstError != "" {
		fmt.Fprintf(w, "  first error: %s\n", r.FirstError)
	}
}
