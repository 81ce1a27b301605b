package main

import (
	"fmt"
	"io"
	"os"

	"github.com/plrun/plrun/bench"
)

// benchLoad is `plrun bench load`: the sysbench table, N rows, in a new
// database.
func benchLoad(args []string, stdout, stderr io.Writer) int {
	b := newDataBenchFlags("load", "folder for the new database (missing or empty); default a temporary folder, removed after unless --keep", stdout, stderr)
	rows := b.fs.Int64("rows", 0, "rows to load into sbtest.sbtest1 (required)")
	batch := b.fs.Int("batch", 1000, "rows per INSERT")
	keep := b.fs.Bool("keep", false, "keep the data folder when it is a temporary one (named on stderr then); a --data folder is always kept")
	if status, ok := b.parse(args); !ok {
		return status
	}
	if *rows <= 0 || *batch <= 0 {
		fmt.Fprintf(stderr, "%s: --rows and --batch must be > 0\n", b.fs.Name())
		return 2
	}
	dir := *b.dataDir
	if dir == "" {
		tmp, err := os.MkdirTemp("", "plrun-bench-load-")
		if err != nil {
			return b.fail(err)
		}
		dir = tmp
		if *keep {
			defer fmt.Fprintf(stderr, "%s: data folder kept at %s\n", b.fs.Name(), dir)
		} else {
			defer os.RemoveAll(dir)
		}
	} else if empty, err := emptyOrMissing(dir); err != nil || !empty {
		if err == nil {
			err = fmt.Errorf("--data %s is not empty: load makes a new database (name a new folder)", dir)
		}
		return b.fail(err)
	}
	res, err := bench.RunTableLoad(background, bench.TableLoadConfig{
		Dir: dir, Rows: *rows, Batch: *batch, Settings: b.openSettings(), Seed: 1, Progress: stderr,
	})
	if res != nil {
		if *b.jsonOut {
			printJSON(stdout, res)
		} else {
			printTableLoad(stdout, res)
		}
	}
	if err != nil {
		return b.fail(err)
	}
	return 0
}

func printTableLoad(w io.Writer, r *bench.TableLoadResult) {
	fmt.Fprintf(w, "load: %d rows into sbtest.sbtest1, %d-row INSERTs, plrun_cache_size %s\n", r.Rows, r.Batch, r.CacheSize)
	fmt.Fprintf(w, "  rows %d, %s, %.0f rows/s (INSERTs %s, CREATE INDEX k_1 %s)\n",
		r.Rows, runLength(r.Seconds), r.RowsPerSec, runLength(r.InsertSec), runLength(r.IndexSec))
	fmt.Fprintf(w, "  peak RSS %s (VmHWM; %s after the checkpoint)\n", mb(r.PeakRSS), mb(r.PeakRSSAfter))
	fmt.Fprintf(w, "  CHECKPOINT right after the load %s\n", runLength(r.CheckpointSec))
	fmt.Fprintf(w, "  data folder %s in %d files (after the checkpoint); close %s\n", mb(r.DataBytes), r.DataFiles, runLength(r.CloseSec))
	verdict := "ok"
	if !r.Verified {
		verdict = "WRONG"
	}
	fmt.Fprintf(w, "  SELECT COUNT(*): %d rows (%s)\n", r.Counted, verdict)
}
