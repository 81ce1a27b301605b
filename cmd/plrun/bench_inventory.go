package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/plrun/plrun/bench"
)

// threadsFlag is a list of concurrency points: "1,8,16" or "1 8 16".
type threadsFlag []int

func (t *threadsFlag) String() string {
	parts := make([]string, len(*t))
	for i, n := range *t {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, ",")
}

func (t *threadsFlag) Set(v string) error {
	var out []int
	for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' }) {
		n, err := strconv.Atoi(f)
		if err != nil || n <= 0 {
			return fmt.Errorf("want thread counts > 0 separated by commas, got %q", f)
		}
		out = append(out, n)
	}
	if len(out) == 0 {
		return fmt.Errorf("want at least one thread count")
	}
	*t = out
	return nil
}

func benchInventory(args []string, stdout, stderr io.Writer) int {
	b := newBenchFlags("inventory", stdout, stderr)
	threads := threadsFlag(append([]int(nil), bench.InventoryThreads...))
	b.fs.Var(&threads, "threads", "concurrency points, comma-separated (the seed's by default)")
	updates := b.fs.Int("updates", 0, "updates per session at each point, instead of --time")
	hotspot := b.fs.String("hotspot", "both", "hotspot (and the hinted UPDATE): on, off, or both (off then on, and their ratio)")
	// Each point is time-bounded unless --updates is given.
	b.fs.Lookup("time").DefValue = "2s"
	*b.runTime = 2 * time.Second
	b.fs.Lookup("warmup").DefValue = "500ms"
	*b.warmup = 500 * time.Millisecond
	dir, cleanup, status, ok := b.parse(args)
	if !ok {
		return status
	}
	defer cleanup()
	if !b.oneBound("updates") {
		return 2
	}
	if *updates > 0 {
		*b.runTime = 0
	} else if *b.runTime == 0 {
		fmt.Fprintln(stderr, "plrun bench inventory: give --time or --updates")
		return 2
	}
	modes, err := onOffBoth("hotspot", *hotspot)
	if err != nil {
		fmt.Fprintf(stderr, "plrun bench inventory: %v\n", err)
		return 2
	}
	if !inventoryEstimate(b, dir, modes, threads, *updates).guard("plrun bench inventory", *b.yes, stderr) {
		return 2
	}
	var results []*bench.InventoryResult
	for _, on := range modes {
		res, err := bench.RunInventory(background, bench.InventoryConfig{
			Dir: filepath.Join(dir, "inventory-hotspot-"+onOffWord(on)), Hotspot: on,
			Threads: threads, Updates: *updates, SyncDelay: *b.syncDelay,
			Settings: b.settings, Workers: *b.workers, Load: b.load(stderr),
		})
		if res != nil && *b.jsonOut {
			printJSON(stdout, res)
		}
		if err != nil {
			if res != nil && !*b.jsonOut {
				printInventory(stdout, append(results, res), *b.runTime, *b.warmup, *updates)
			}
			fmt.Fprintf(stderr, "plrun bench inventory: %v\n", err)
			return 1
		}
		results = append(results, res)
	}
	if !*b.jsonOut {
		printInventory(stdout, results, *b.runTime, *b.warmup, *updates)
	}
	return b.writeChart(inventoryChart(results))
}

// inventoryEstimate: a time-bounded point takes warm-up + time; with
// hotspot off each update of the row waits for its own sync with the
// lock held (serial), with it on each session waits for one per update.
func inventoryEstimate(b *benchFlags, dir string, modes []bool, threads []int, updates int) *runEstimate {
	e := &runEstimate{}
	if *b.runTime > 0 {
		n := len(modes) * len(threads)
		e.add(fmt.Sprintf("%d points x (warm-up + time)", n), time.Duration(n)*(*b.warmup+*b.runTime))
		return e
	}
	sync := probeSync(dir, *b.syncDelay)
	for _, on := range modes {
		var serial int
		for _, t := range threads {
			if on {
				serial += updates
			} else {
				serial += t * updates
			}
		}
		e.add(fmt.Sprintf("hotspot %s: %d serial updates x %v per sync", onOffWord(on), serial, sync),
			time.Duration(serial)*sync+time.Duration(len(threads))**b.warmup)
	}
	return e
}

// printInventory prints the sweep in the seed's layout: a row per
// configuration, a column per concurrency, first QPS then the 95th
// percentile latency, plrun's rows above PolarDB's published ones.
func printInventory(w io.Writer, results []*bench.InventoryResult, runTime, warmup time.Duration, updates int) {
	if len(results) == 0 {
		return
	}
	bound := fmt.Sprintf("%v per point after a %v warm-up", runTime, warmup)
	if runTime == 0 {
		bound = fmt.Sprintf("%d updates per session per point", updates)
	}
	fmt.Fprintf(w, "inventory (seed 002): one hot row, %q (hinted when hotspot is on), %s, sync delay %v\n",
		bench.InventoryUpdate, bound, time.Duration(results[0].SyncDelayMs*float64(time.Millisecond)))
	threads := pointThreads(results)
	table := func(title string, plrun func(bench.InventoryPoint) float64, format string, polar func(bench.PolarDBFigures, bool) []float64) {
		fmt.Fprintf(w, "\n%s\n", title)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		row := func(label string, cell func(t int) string) {
			fmt.Fprintf(tw, "%-24s\t", label) // padded: the labels read left-aligned
			for _, t := range threads {
				fmt.Fprintf(tw, "%s\t", cell(t))
			}
			fmt.Fprintln(tw)
		}
		row("Concurrency", func(t int) string { return strconv.Itoa(t) })
		for _, r := range results {
			row("plrun hotspot "+onOffWord(r.Hotspot), func(t int) string {
				if pt, ok := pointAt(r, t); ok {
					return fmt.Sprintf(format, plrun(pt))
				}
				return "-"
			})
		}
		if len(results) == 2 {
			row("plrun on/off", func(t int) string {
				off, ok1 := pointAt(results[0], t)
				on, ok2 := pointAt(results[1], t)
				if !ok1 || !ok2 || plrun(off) == 0 {
					return "-"
				}
				return fmt.Sprintf("%.2fx", plrun(on)/plrun(off))
			})
		}
		for _, p := range bench.PolarDB {
			for _, on := range []bool{false, true} {
				series := polar(p, on)
				if series == nil {
					continue
				}
				row(fmt.Sprintf("PolarDB %s hotspot %s", p.Version, onOffWord(on)), func(t int) string {
					if v, ok := p.At(series, t); ok {
						return strconv.FormatFloat(v, 'f', -1, 64)
					}
					return "-"
				})
			}
		}
		tw.Flush()
	}
	table("QPS", func(pt bench.InventoryPoint) float64 { return pt.QPS }, "%.2f",
		func(p bench.PolarDBFigures, on bool) []float64 { return pick(on, p.QPSOff, p.QPSOn) })
	table("95th percentile latency (ms)", func(pt bench.InventoryPoint) float64 { return pt.P95Ms }, "%.2f",
		func(p bench.PolarDBFigures, on bool) []float64 { return pick(on, p.P95Off, p.P95On) })
	fmt.Fprintln(w)
	for _, r := range results {
		var bad []string
		for _, pt := range r.Points {
			if !pt.Verified {
				bad = append(bad, strconv.Itoa(pt.Threads))
			}
		}
		verdict := "every point's c grew by exactly its successful updates"
		if len(bad) > 0 || r.FirstError != "" {
			verdict = "WRONG at threads " + strings.Join(bad, ",") + ": " + r.FirstError
		}
		fmt.Fprintf(w, "hotspot %s: %s\n", onOffWord(r.Hotspot), verdict)
	}
	fmt.Fprintln(w, "PolarDB: the seed's published figures (8-core CPU, sysbench oltp_inventory); plrun: this machine, this run.")
}

func pick(on bool, off, onSeries []float64) []float64 {
	if on {
		return onSeries
	}
	return off
}

func pointAt(r *bench.InventoryResult, threads int) (bench.InventoryPoint, bool) {
	for _, pt := range r.Points {
		if pt.Threads == threads {
			return pt, true
		}
	}
	return bench.InventoryPoint{}, false
}

// pointThreads are the concurrency points any sweep measured, in order.
func pointThreads(results []*bench.InventoryResult) []int {
	var out []int
	seen := map[int]bool{}
	for _, r := range results {
		for _, pt := range r.Points {
			if !seen[pt.Threads] {
				seen[pt.Threads] = true
				out = append(out, pt.Threads)
			}
		}
	}
	return out
}

// inventoryChart is QPS and p95 against concurrency: plrun's sweeps and,
// dashed, PolarDB 8.0's published figures at the same points.
func inventoryChart(results []*bench.InventoryResult) bench.Chart {
	c := bench.Chart{Title: "inventory (seed 002): one hot row", XLabel: "threads", LogX: true, TPSLabel: "QPS"}
	threads := pointThreads(results)
	for _, r := range results {
		s := bench.ChartSeries{Name: "plrun hotspot " + onOffWord(r.Hotspot)}
		for _, pt := range r.Points {
			s.X = append(s.X, float64(pt.Threads))
			s.TPS = append(s.TPS, pt.QPS)
			s.P95 = append(s.P95, pt.P95Ms)
		}
		c.Series = append(c.Series, s)
	}
	polar := bench.PolarDB[len(bench.PolarDB)-1]
	for _, r := range results {
		s := bench.ChartSeries{Name: fmt.Sprintf("PolarDB %s hotspot %s", polar.Version, onOffWord(r.Hotspot)), Reference: true}
		qps, p95 := pick(r.Hotspot, polar.QPSOff, polar.QPSOn), pick(r.Hotspot, polar.P95Off, polar.P95On)
		for _, t := range threads {
			q, ok1 := polar.At(qps, t)
			l, ok2 := polar.At(p95, t)
			if ok1 && ok2 {
				s.X, s.TPS, s.P95 = append(s.X, float64(t)), append(s.TPS, q), append(s.P95, l)
			}
		}
		if len(s.X) > 0 {
			c.Series = append(c.Series, s)
		}
	}
	return c
}
