package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/plrun/plrun/bench"
)

func benchPlcommit(args []string, stdout, stderr io.Writer) int {
	b := newBenchFlags("plcommit", stdout, stderr)
	lang := b.fs.String("lang", "both", "procedure languages: sql, lua, js, a comma list of them (sql,lua,js), both (lua,js) or all")
	async := b.fs.String("async", "both", "ob_enable_pl_async_commit: on, off, or both (off then on, and their ratio)")
	iterations := b.fs.Int("iterations", 1000, "INSERT+COMMIT pairs per CALL (the procedure's argument)")
	calls := b.fs.Int("calls", 5, "CALLs per session (when --time is 0)")
	concurrency := b.fs.Int("concurrency", 1, "sessions calling at once")
	dir, cleanup, status, ok := b.parse(args)
	if !ok {
		return status
	}
	defer cleanup()
	if !b.oneBound("calls") {
		return 2
	}
	langs, err := plcommitLangs(*lang)
	if err != nil {
		fmt.Fprintf(stderr, "plrun bench plcommit: %v\n", err)
		return 2
	}
	modes, err := onOffBoth("async", *async)

	if err != nil {
		fmt.Fprintf(stderr, "plrun bench plcommit: %v\n", err)
		return 2
	}
	if !plcommitEstimate(b, dir, len(langs), modes, *iterations, *calls).guard("plrun bench plcommit", *b.yes, stderr) {
		return 2
	}
	chart := bench.Chart{Title: fmt.Sprintf("plcommit (seed 003): %d session(s), n = %d", *concurrency, *iterations),
		XLabel: "time (s)", TPSLabel: "commits/s"}
	for _, l := range langs {
		var results []*bench.PlcommitResult
		for _, on := range modes {
			cfg := bench.PlcommitConfig{
				Dir:  filepath.Join(dir, fmt.Sprintf("plcommit-%s-async-%s", l, onOffWord(on))),
				Lang: l, Async: on, Iterations: *iterations, Calls: *calls, Concurrency: *concurrency,
				Workers: *b.workers, SyncDelay: *b.syncDelay, Settings: b.settings, Load: b.load(stderr),
			}
			res, err := bench.RunPlcommit(background, cfg)
			if res != nil {
				if *b.jsonOut {
					printJSON(stdout, res)
				} else {
					printPlcommit(stdout, res)
				}
				chart.Series = append(chart.Series, overTime(l+" async "+onOffWord(on), res.Intervals))
			}
			if err != nil {
				fmt.Fprintf(stderr, "plrun bench plcommit: %v\n", err)
				return 1
			}
			results = append(results, res)
		}
		if len(results) == 2 && !*b.jsonOut && results[1].MeanCallSec > 0 {
			fmt.Fprintf(stdout, "%s async on/off: mean CALL %s vs %s (%.2fx faster), %.0f vs %.0f commits/s\n",
				l, runLength(results[1].MeanCallSec), runLength(results[0].MeanCallSec), results[0].MeanCallSec/results[1].MeanCallSec,
				results[1].CommitsPerS, results[0].CommitsPerS)
		}
	}
	return b.writeChart(chart)
}

// plcommitEstimate: with async commit off every COMMIT in the procedure
// waits for its log sync, so a session's CALLs cost n syncs each; with it
// on, a CALL waits once, at its end.
func plcommitEstimate(b *benchFlags, dir string, langs int, modes []bool, iterations, calls int) *runEstimate {
	e := &runEstimate{}
	if *b.runTime > 0 {
		n := langs * len(modes)
		e.add(fmt.Sprintf("%d x (warm-up + time)", n), time.Duration(n)*(*b.warmup+*b.runTime))
		return e
	}
	sync := probeSync(dir, *b.syncDelay)
	for _, on := range modes {
		per := time.Duration(calls*iterations) * sync
		what := fmt.Sprintf("async off: %d x %d commits per session x %v per sync", calls, iterations, sync)
		if on {
			per = time.Duration(calls) * sync
			what = fmt.Sprintf("async on: %d CALLs x %v", calls, sync)
		}
		e.add(fmt.Sprintf("%s, %d language(s)", what, langs), time.Duration(langs)*(per+*b.warmup))
	}
	return e
}

func printPlcommit(w io.Writer, r *bench.PlcommitResult) {
	bound := fmt.Sprintf("%d CALLs", r.Calls)
	if r.TimeSec > 0 {
		bound = fmt.Sprintf("CALLs for %s (%d done)", runLength(r.TimeSec), r.Done)
	}
	fmt.Fprintf(w, "plcommit %s async=%s: %d session(s) x %s of seed003_%s(%d)\n",
		r.Lang, onOffWord(r.Async), r.Concurrency, bound, r.Lang, r.Iterations)
	var b strings.Builder
	const shown = 20
	for i, s := range r.CallSec {
		if i == shown {
			fmt.Fprintf(&b, " ... (%d more)", len(r.CallSec)-shown)
			break
		}
		if i > 0 && i%10 == 0 {
			b.WriteString("\n             ")
		}
		fmt.Fprintf(&b, " %.1f", s*1e3)
	}
	fmt.Fprintf(w, "  CALL times:%s ms\n", b.String())
	rate := "no CALL succeeded, so no commit rate"
	if r.CommitsPerS > 0 {
		rate = fmt.Sprintf("%.0f commits/s over %s", r.CommitsPerS, runLength(r.ElapsedSec))
	}
	fmt.Fprintf(w, "  mean %s per CALL (p50 %.1f ms, p99 %.1f ms); %s; %d rows (%s)\n",
		runLength(r.MeanCallSec), r.P50CallMs, r.P99CallMs, rate, r.Rows, map[bool]string{true: "ok", false: "WRONG"}[r.Verified])
	fmt.Fprintf(w, "  avg commit-group size %.1f, %.0f log syncs\n", r.AvgGroupSize, r.LogSyncs)
	if r.FirstError != "" {
		fmt.Fprintf(w, "  first error: %s\n", r.FirstError)
	}
}

// plcommitLangs reads --lang: one of sql, lua, js, a comma list of them,
// both (lua and js, as before SQL procedures) or all.
func plcommitLangs(flag string) ([]string, error) {
	switch strings.ToLower(flag) {
	case "both":
		return []string{"lua", "js"}, nil
	case "all":
		return []string{"sql", "lua", "js"}, nil
	}
	var langs []string
	seen := map[string]bool{}
	for _, l := range strings.Split(strings.ToLower(flag), ",") {
		l = strings.TrimSpace(l)
		if l != "sql" && l != "lua" && l != "js" || seen[l] {
			return nil, fmt.Errorf("--lang: want sql, lua, js, a comma list of them, both or all, got %q", flag)
		}
		seen[l] = true
		langs = append(langs, l)
	}
	return langs, nil
}
