package main

import (
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/plrun/plrun/bench"
)

func benchHotrow(args []string, stdout, stderr io.Writer) int {
	b := newBenchFlags("hotrow", stdout, stderr)
	threads := b.fs.Int("threads", 50, "concurrent sessions")
	updates := b.fs.Int("updates", 2000, "autocommit updates per session (when --time is 0)")
	elr := b.fs.String("elr", "both", "enable_early_lock_release: on, off, or both (off then on, and their ratio)")
	dir, cleanup, status, ok := b.parse(args)
	if !ok {
		return status
	}
	defer cleanup()
	if !b.oneBound("updates") {
		return 2
	}
	modes, err := onOffBoth("elr", *elr)
	if err != nil {
		fmt.Fprintf(stderr, "plrun bench hotrow: %v\n", err)
		return 2
	}
	if !hotrowEstimate(b, dir, modes, *threads, *updates).guard("plrun bench hotrow", *b.yes, stderr) {
		return 2
	}
	var results []*bench.HotrowResult
	chart := bench.Chart{Title: fmt.Sprintf("hotrow (seed 000): %d threads, one row", *threads), XLabel: "time (s)", TPSLabel: "TPS"}
	for _, on := range modes {
		cfg := bench.HotrowConfig{
			Dir:     filepath.Join(dir, "hotrow-elr-"+onOffWord(on)),
			Threads: *threads, Updates: *updates, ELR: on, SyncDelay: *b.syncDelay,
			Settings: b.settings, Workers: *b.workers, Load: b.load(stderr),
		}
		res, err := bench.RunHotrow(background, cfg)
		if res != nil {
			if *b.jsonOut {
				printJSON(stdout, res)
			} else {
				printHotrow(stdout, res)
			}
			chart.Series = append(chart.Series, overTime("ELR "+onOffWord(on), res.Intervals))
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
	return b.writeChart(chart)
}

// hotrowEstimate: with ELR off every update of the row waits for its
// own log sync with the lock held, so the updates are serial; with ELR
// on each session still waits for its own sync per update.
func hotrowEstimate(b *benchFlags, dir string, modes []bool, threads, updates int) *runEstimate {
	e := &runEstimate{}
	if *b.runTime > 0 {
		e.add(fmt.Sprintf("%d x (warm-up + time)", len(modes)), time.Duration(len(modes))*(*b.warmup+*b.runTime))
		return e
	}
	sync := probeSync(dir, *b.syncDelay)
	for _, on := range modes {
		if on {
			e.add(fmt.Sprintf("ELR on: %d updates per session x %v per sync", updates, sync), time.Duration(updates)*sync+*b.warmup)
		} else {
			e.add(fmt.Sprintf("ELR off: %d serial updates x %v per sync", threads*updates, sync), time.Duration(threads*updates)*sync+*b.warmup)
		}
	}
	return e
}

func printHotrow(w io.Writer, r *bench.HotrowResult) {
	bound := fmt.Sprintf("%d threads x %d updates of one row", r.Threads, r.Updates)
	if r.TimeSec > 0 {
		bound = fmt.Sprintf("%d threads updating one row for %s", r.Threads, runLength(r.TimeSec))
	}
	fmt.Fprintf(w, "hotrow elr=%s: %s, sync delay %v\n",
		onOffWord(r.ELR), bound, time.Duration(r.SyncDelayMs*float64(time.Millisecond)))
	fmt.Fprintf(w, "  elapsed %s, %d updates, %.0f TPS, latency p50 %.2f ms  p95 %.2f ms  p99 %.2f ms  max %.2f ms\n",
		runLength(r.ElapsedSec), r.Done, r.TPS, r.P50Ms, r.P95Ms, r.P99Ms, r.MaxMs)
	verdict := "ok"
	if !r.Verified {
		verdict = fmt.Sprintf("WRONG, %d updates failed", r.Failed)
	}
	want := fmt.Sprintf("%d updates", r.Done)
	if r.WarmupSec > 0 {
		want += fmt.Sprintf(" + %d in the warm-up", r.WarmupDone)
	}
	fmt.Fprintf(w, "  k %d -> %d (+%d, want %s = %d: %s)\n",
		r.KBefore, r.KAfter, r.KAfter-r.KBefore, want, r.Done+r.WarmupDone, verdict)
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
