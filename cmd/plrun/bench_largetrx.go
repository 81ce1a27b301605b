package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/plrun/plrun/bench"
)

func benchLargeTrx(args []string, stdout, stderr io.Writer) int {
	b := newBenchFlags("largetrx", stdout, stderr)
	sizeMB := b.fs.Int("size-mb", 64, "redo size of the large transaction, in MiB")
	splitMB := b.fs.Int("split-mb", 2, "chunk size when splitting (consensus_large_trx_split_size), in MiB")
	threads := b.fs.Int("threads", 8, "sessions making small commits meanwhile")
	split := b.fs.String("split", "both", "consensus_large_trx: on, off, or both")
	dir, cleanup, status, ok := b.parse(args)
	if !ok {
		return status
	}
	defer cleanup()
	if *b.runTime > 0 {
		// The run is bounded by the large COMMIT, not by a count or a time.
		fmt.Fprintln(stderr, "plrun bench largetrx: --time does not apply (the run lasts as long as the large COMMIT); --warmup is how long the small commits run before it")
		return 2
	}
	modes, err := onOffBoth("split", *split)
	if err != nil {
		fmt.Fprintf(stderr, "plrun bench largetrx: %v\n", err)
		return 2
	}
	var results []*bench.LargeTrxResult
	chart := bench.Chart{Title: fmt.Sprintf("largetrx (seed 004): small commits beside a %d MiB COMMIT", *sizeMB),
		XLabel: "time (s)", TPSLabel: "small commits/s"}
	for _, on := range modes {
		res, err := bench.RunLargeTrx(background, bench.LargeTrxConfig{
			Dir: filepath.Join(dir, "largetrx-split-"+onOffWord(on)), Split: on,
			SizeBytes: *sizeMB << 20, SplitSize: *splitMB << 20, Threads: *threads,
			Settings: b.settings, Workers: *b.workers, Load: b.load(stderr),
		})
		if res != nil {
			if *b.jsonOut {
				printJSON(stdout, res)
			} else {
				fmt.Fprintf(stdout, "largetrx split=%s: one %.0f MiB transaction committed in %.1f ms (%.0f chunks); %d small commits meanwhile: p50 %.2f ms, p99 %.2f ms, max %.2f ms (%s)\n",
					onOffWord(res.Split), res.SizeMB, res.LargeCommit, res.Chunks, res.SmallCommits,
					res.SmallP50Ms, res.SmallP99Ms, res.SmallMaxMs, map[bool]string{true: "ok", false: "WRONG"}[res.Verified])
			}
			chart.Series = append(chart.Series, overTime("split "+onOffWord(on), res.Intervals))
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
	return b.writeChart(chart)
}
