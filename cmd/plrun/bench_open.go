package main

import (
	"fmt"
	"io"

	"github.com/plrun/plrun/bench"
)

// benchOpen is `plrun bench open`: open a loaded folder, point selects,
// close.
func benchOpen(args []string, stdout, stderr io.Writer) int {
	b := newDataBenchFlags("open", "the data folder plrun bench load made (required)", stdout, stderr)
	selects := b.fs.Int("selects", 10000, "uniform-random point selects (SELECT c FROM sbtest1 WHERE id=?) after the open")
	if status, ok := b.parse(args); !ok {
		return status
	}
	if *b.dataDir == "" || *selects <= 0 {
		fmt.Fprintf(stderr, "%s: --data DIR is required and --selects must be > 0\n", b.fs.Name())
		return 2
	}
	res, err := bench.RunOpen(background, bench.OpenConfig{Dir: *b.dataDir, Settings: b.openSettings(), Selects: *selects, Seed: 1})
	if res != nil {
		if *b.jsonOut {
			printJSON(stdout, res)
		} else {
			printOpen(stdout, res)
		}
	}
	if err != nil {
		return b.fail(err)
	}
	return 0
}

func printOpen(w io.Writer, r *bench.OpenResult) {
	fmt.Fprintf(w, "open: sbtest.sbtest1, ids 1..%d, plrun_cache_size %s\n", r.MaxID, r.CacheSize)
	fmt.Fprintf(w, "  open %s (Open to ready; the log replayed held %.1f MiB), RSS after open %s\n",
		runLength(r.OpenSec), bench.MB(r.LogBytes), mb(r.RSSAfterOpen))
	verdict := "ok"
	if !r.Verified {
		verdict = fmt.Sprintf("WRONG, %d found no row", r.Selects-r.Found)
	}
	fmt.Fprintf(w, "  %d point selects in %s: p50 %.3f ms  p99 %.3f ms  max %.3f ms (%s)\n",
		r.Selects, runLength(r.SelectSec), r.P50Ms, r.P99Ms, r.MaxMs, verdict)
	fmt.Fprintf(w, "  RSS after the selects %s, peak %s; close %s\n", mb(r.RSSAfter), mb(r.PeakRSS), runLength(r.CloseSec))
}
