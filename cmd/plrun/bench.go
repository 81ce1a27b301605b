package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/plrun/plrun/bench"
)

// benchMain runs `plrun bench WORKLOAD [flags]`.
func benchMain(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprintln(stderr, "usage: plrun bench hotrow|plcommit|largetrx [flags]   (plrun bench hotrow --help for the flags)")
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	switch args[0] {
	case "hotrow":
		return benchHotrow(args[1:], stdout, stderr)
	case "plcommit":
		return benchPlcommit(args[1:], stdout, stderr)
	case "largetrx":
		return benchLargeTrx(args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "plrun bench: unknown workload %q (hotrow, plcommit, largetrx)\n", args[0])
	return 2
}

// benchFlags are the flags every workload has.
type benchFlags struct {
	fs        *flag.FlagSet
	dataDir   *string
	jsonOut   *bool
	syncDelay *time.Duration
	workers   *int
	settings  settingsFlag
}

func newBenchFlags(name string, stderr io.Writer) *benchFlags {
	fs := flag.NewFlagSet("plrun bench "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	b := &benchFlags{
		fs:        fs,
		dataDir:   fs.String("data", "", "folder for the runs' databases (each run empties its own subfolder); default a temporary folder, removed after"),
		jsonOut:   fs.Bool("json", false, "print one JSON object per configuration instead of text"),
		syncDelay: fs.Duration("sync-delay", 0, "add this to every log sync (plrun_log_sync_delay_us), e.g. 2ms or 30ms"),
		workers:   fs.Int("workers", 0, "worker pool size (plrun_workers; 0 = engine default)"),
		settings:  settingsFlag{},
	}
	fs.Var(b.settings, "set", "set a global variable at open, name=value (repeatable)")
	return b
}

// parse parses args and resolves the data folder; cleanup removes a
// temporary one.
func (b *benchFlags) parse(args []string) (dir string, cleanup func(), status int, ok bool) {
	if err := b.fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return "", nil, 0, false
		}
		return "", nil, 2, false
	}
	if b.fs.NArg() > 0 {
		fmt.Fprintf(b.fs.Output(), "%s: unexpected argument %q\n", b.fs.Name(), b.fs.Arg(0))
		return "", nil, 2, false
	}
	if *b.dataDir != "" {
		if err := os.MkdirAll(*b.dataDir, 0o755); err != nil {
			fmt.Fprintf(b.fs.Output(), "%s: %v\n", b.fs.Name(), err)
			return "", nil, 1, false
		}
		return *b.dataDir, func() {}, 0, true
	}
	tmp, err := os.MkdirTemp("", "plrun-bench-")
	if err != nil {
		fmt.Fprintf(b.fs.Output(), "%s: %v\n", b.fs.Name(), err)
		return "", nil, 1, false
	}
	return tmp, func() { os.RemoveAll(tmp) }, 0, true
}

// onOffBoth turns on|off|both into the configurations to run, off first.
func onOffBoth(flagName, v string) ([]bool, error) {
	switch strings.ToLower(v) {
	case "off":
		return []bool{false}, nil
	case "on":
		return []bool{true}, nil
	case "both":
		return []bool{false, true}, nil
	}
	return nil, fmt.Errorf("--%s: want on, off or both, got %q", flagName, v)
}

func benchHotrow(args []string, stdout, stderr io.Writer) int {
	b := newBenchFlags("hotrow", stderr)
	threads := b.fs.Int("threads", 50, "concurrent sessions")
	updates := b.fs.Int("updates", 2000, "autocommit updates per session")
	elr := b.fs.String("elr", "both", "enable_early_lock_release: on, off, or both (off then on, and their ratio)")
	dir, cleanup, status, ok := b.parse(args)
	if !ok {
		return status
	}
	defer cleanup()
	modes, err := onOffBoth("elr", *elr)
	if err != nil {
		fmt.Fprintf(stderr, "plrun bench hotrow: %v\n", err)
		return 2
	}
	var results []*bench.HotrowResult
	for _, on := range modes {
		cfg := bench.HotrowConfig{
			Dir:     filepath.Join(dir, "hotrow-elr-"+onOffWord(on)),
			Threads: *threads, Updates: *updates, ELR: on, SyncDelay: *b.syncDelay,
			Settings: b.settings, Workers: *b.workers, Progress: stderr,
		}
		res, err := bench.RunHotrow(context.Background(), cfg)
		if res != nil {
			if *b.jsonOut {
				printJSON(stdout, res)
			} else {
				printHotrow(stdout, res)
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "plrun bench hotrow: %v\n", err)
			return 1
		}
		results = append(results, res)
	}
	if len(results) == 2 && !*b.jsonOut && results[0].TPS > 0 {
		fmt.Fprintf(stdout, "ELR on/off: %.2fx (%.0f vs %.0f TPS; p99 %.2f vs %.2f ms)\n",
			results[1].TPS/results[0].TPS, results[1].TPS, results[0].TPS, results[1].P99Ms, results[0].P99Ms)
	}
	return 0
}

func printHotrow(w io.Writer, r *bench.HotrowResult) {
	fmt.Fprintf(w, "hotrow elr=%s: %d threads x %d updates of one row, sync delay %v\n",
		onOffWord(r.ELR), r.Threads, r.Updates, time.Duration(r.SyncDelayMs*float64(time.Millisecond)))
	fmt.Fprintf(w, "  elapsed %.2f s, %.0f TPS, latency p50 %.2f ms  p95 %.2f ms  p99 %.2f ms  max %.2f ms\n",
		r.ElapsedSec, r.TPS, r.P50Ms, r.P95Ms, r.P99Ms, r.MaxMs)
	verdict := "ok"
	if !r.Verified {
		verdict = fmt.Sprintf("WRONG, %d updates failed", r.Failed)
	}
	fmt.Fprintf(w, "  k %d -> %d (+%d, want %d x %d = %d: %s)\n",
		r.KBefore, r.KAfter, r.KAfter-r.KBefore, r.Threads, r.Updates, r.Threads*r.Updates, verdict)
	fmt.Fprintf(w, "  commits %.0f in %.0f log groups (avg commit-group size %.1f), %.0f log syncs (avg %.0f us)\n",
		r.Commits, r.LogGroups, r.AvgGroupSize, r.LogSyncs, r.LogSyncAvgUs)
	fmt.Fprintf(w, "  row lock waits %.0f, ELR early releases %.0f, dependent-limit waits %.0f\n",
		r.RowLockWaits, r.EarlyReleases, r.DepLimitWaits)
	fmt.Fprintf(w, "  fsync on this disk (median) %.0f us: one sync per update allows %.0f TPS; this run is %.2fx that bound\n",
		r.FsyncMedianUs, r.SyncBoundTPS, r.VsSyncBound)
	if r.FirstError != "" {
		fmt.Fprintf(w, "  first error: %s\n", r.FirstError)
	}
}

func benchPlcommit(args []string, stdout, stderr io.Writer) int {
	b := newBenchFlags("plcommit", stderr)
	lang := b.fs.String("lang", "both", "procedure language: lua, js, or both")
	async := b.fs.String("async", "both", "ob_enable_pl_async_commit: on, off, or both (off then on, and their ratio)")
	iterations := b.fs.Int("iterations", 1000, "INSERT+COMMIT pairs per CALL (the procedure's argument)")
	calls := b.fs.Int("calls", 5, "CALLs per session")
	concurrency := b.fs.Int("concurrency", 1, "sessions calling at once")
	dir, cleanup, status, ok := b.parse(args)
	if !ok {
		return status
	}
	defer cleanup()
	var langs []string
	switch *lang {
	case "lua", "js":
		langs = []string{*lang}
	case "both":
		langs = []string{"lua", "js"}
	default:
		fmt.Fprintf(stderr, "plrun bench plcommit: --lang: want lua, js or both, got %q\n", *lang)
		return 2
	}
	modes, err := onOffBoth("async", *async)
	if err != nil {
		fmt.Fprintf(stderr, "plrun bench plcommit: %v\n", err)
		return 2
	}
	for _, l := range langs {
		var results []*bench.PlcommitResult
		for _, on := range modes {
			cfg := bench.PlcommitConfig{
				Dir:  filepath.Join(dir, fmt.Sprintf("plcommit-%s-async-%s", l, onOffWord(on))),
				Lang: l, Async: on, Iterations: *iterations, Calls: *calls, Concurrency: *concurrency,
				Workers: *b.workers, SyncDelay: *b.syncDelay, Settings: b.settings, Progress: stderr,
			}
			res, err := bench.RunPlcommit(context.Background(), cfg)
			if res != nil {
				if *b.jsonOut {
					printJSON(stdout, res)
				} else {
					printPlcommit(stdout, res)
				}
			}
			if err != nil {
				fmt.Fprintf(stderr, "plrun bench plcommit: %v\n", err)
				return 1
			}
			results = append(results, res)
		}
		if len(results) == 2 && !*b.jsonOut && results[1].MeanCallSec > 0 {
			fmt.Fprintf(stdout, "%s async on/off: mean CALL %.3f s vs %.3f s (%.2fx faster), %.0f vs %.0f commits/s\n",
				l, results[1].MeanCallSec, results[0].MeanCallSec, results[0].MeanCallSec/results[1].MeanCallSec,
				results[1].CommitsPerS, results[0].CommitsPerS)
		}
	}
	return 0
}

func printPlcommit(w io.Writer, r *bench.PlcommitResult) {
	fmt.Fprintf(w, "plcommit %s async=%s: %d session(s) x %d CALLs of seed003_%s(%d)\n",
		r.Lang, onOffWord(r.Async), r.Concurrency, r.Calls, r.Lang, r.Iterations)
	var b strings.Builder
	for i, s := range r.CallSec {
		if i > 0 && i%10 == 0 {
			b.WriteString("\n             ")
		}
		fmt.Fprintf(&b, " %.3f", s)
	}
	fmt.Fprintf(w, "  CALL times:%s s\n", b.String())
	fmt.Fprintf(w, "  mean %.3f s per CALL (p50 %.1f ms, p99 %.1f ms); %.0f commits/s over %.2f s; %d rows (%s)\n",
		r.MeanCallSec, r.P50CallMs, r.P99CallMs, r.CommitsPerS, r.ElapsedSec, r.Rows, map[bool]string{true: "ok", false: "WRONG"}[r.Verified])
	fmt.Fprintf(w, "  avg commit-group size %.1f, %.0f log syncs\n", r.AvgGroupSize, r.LogSyncs)
	if r.FirstError != "" {
		fmt.Fprintf(w, "  first error: %s\n", r.FirstError)
	}
}

func benchLargeTrx(args []string, stdout, stderr io.Writer) int {
	b := newBenchFlags("largetrx", stderr)
	sizeMB := b.fs.Int("size-mb", 64, "redo size of the large transaction, in MiB")
	splitMB := b.fs.Int("split-mb", 2, "chunk size when splitting (consensus_large_trx_split_size), in MiB")
	threads := b.fs.Int("threads", 8, "sessions making small commits meanwhile")
	split := b.fs.String("split", "both", "consensus_large_trx: on, off, or both")
	dir, cleanup, status, ok := b.parse(args)
	if !ok {
		return status
	}
	defer cleanup()
	modes, err := onOffBoth("split", *split)
	if err != nil {
		fmt.Fprintf(stderr, "plrun bench largetrx: %v\n", err)
		return 2
	}
	var results []*bench.LargeTrxResult
	for _, on := range modes {
		res, err := bench.RunLargeTrx(context.Background(), bench.LargeTrxConfig{
			Dir: filepath.Join(dir, "largetrx-split-"+onOffWord(on)), Split: on,
			SizeBytes: *sizeMB << 20, SplitSize: *splitMB << 20, Threads: *threads,
			Settings: b.settings, Workers: *b.workers,
		})
		if res != nil {
			if *b.jsonOut {
				printJSON(stdout, res)
			} else {
				fmt.Fprintf(stdout, "largetrx split=%s: one %.0f MiB transaction committed in %.1f ms (%.0f chunks); %d small commits meanwhile: p50 %.2f ms, p99 %.2f ms, max %.2f ms (%s)\n",
					onOffWord(res.Split), res.SizeMB, res.LargeCommit, res.Chunks, res.SmallCommits,
					res.SmallP50Ms, res.SmallP99Ms, res.SmallMaxMs, map[bool]string{true: "ok", false: "WRONG"}[res.Verified])
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "plrun bench largetrx: %v\n", err)
			return 1
		}
		results = append(results, res)
	}
	if len(results) == 2 && !*b.jsonOut && results[1].SmallMaxMs > 0 {
		fmt.Fprintf(stdout, "split on vs off: small-commit p99 %.2f vs %.2f ms, max %.2f vs %.2f ms\n",
			results[1].SmallP99Ms, results[0].SmallP99Ms, results[1].SmallMaxMs, results[0].SmallMaxMs)
	}
	return 0
}

func printJSON(w io.Writer, v any) {
	line, err := json.Marshal(v)
	if err != nil {
		fmt.Fprintf(w, "{\"error\": %q}\n", err.Error())
		return
	}
	fmt.Fprintf(w, "%s\n", line)
}

func onOffWord(b bool) string {
	if b {
		return "on"
	}
	return "off"
}
