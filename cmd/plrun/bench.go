package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/plrun/plrun/bench"
)

// benchWorkloads are the workloads of `plrun bench`, in the order the
// help lists them.
var benchWorkloads = []struct{ name, what string }{
	{"hotrow", "seed 000: N sessions updating one row (autocommit), ELR off vs on"},
	{"inventory", "seed 002: UPDATE ... SET c=c+1 WHERE id=1 swept over 1..1024 threads, hotspot off vs on, beside PolarDB's figures"},
	{"plcommit", "seed 003: a procedure doing n x (INSERT; COMMIT), in Lua and JS, async commit off vs on"},
	{"largetrx", "seed 004: one large transaction committed beside small commits, splitting off vs on"},
	{"load", "issue 15: the sysbench table (sbtest.sbtest1) with --rows N, in --batch-row INSERTs: rows/s, peak RSS, size, CHECKPOINT"},
	{"open", "issue 15: open a loaded --data folder (recovery included), then 10,000 point selects: open time, RSS, p50/p99"},
	{"dirty", "issue 15: UPDATEs until --log-mb of log since the last checkpoint, then SIGKILL (for bench open to replay)"},
}

const benchCommonHelp = `load, open and dirty take --data DIR, --cache-size SIZE (plrun_cache_size: 512M, 2G), --set, --json.
The seed workloads (hotrow, inventory, plcommit, largetrx) take:
  --time 30s           run each configuration for this long (sysbench --time) instead of its count
                       (--updates, --calls); count-bounded runs show an ETA on every line
  --warmup 5s          run unmeasured first (sysbench --warmup-time)
  --report-interval 1s a line every interval: [ 2s ] thds: 50 tps: ... lat (ms,95%): ... err/s: ...
  --chart FILE.svg     draw throughput and p95 latency, off vs on, to FILE.svg or FILE.png
  --yes                run even when the estimated length is over 10 minutes (it is refused otherwise)
  --sync-delay 30ms, --workers N, --set name=value, --data DIR, --json
`

// benchMain runs `plrun bench WORKLOAD [flags]`.
func benchMain(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		w := stdout
		if len(args) == 0 {
			w = stderr
		}
		fmt.Fprintln(w, "usage: plrun bench WORKLOAD [flags]   (plrun bench WORKLOAD --help for its flags)")
		fmt.Fprintln(w, "\nWorkloads:")
		for _, wl := range benchWorkloads {
			fmt.Fprintf(w, "  %-10s %s\n", wl.name, wl.what)
		}
		fmt.Fprint(w, "\n"+benchCommonHelp)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	switch args[0] {
	case "hotrow":
		return benchHotrow(args[1:], stdout, stderr)
	case "inventory":
		return benchInventory(args[1:], stdout, stderr)
	case "plcommit":
		return benchPlcommit(args[1:], stdout, stderr)
	case "largetrx":
		return benchLargeTrx(args[1:], stdout, stderr)
	case "load":
		return benchLoad(args[1:], stdout, stderr)
	case "open":
		return benchOpen(args[1:], stdout, stderr)
	case "dirty":
		return benchDirty(args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "plrun bench: unknown workload %q (hotrow, inventory, plcommit, largetrx, load, open, dirty)\n", args[0])
	return 2
}

// benchFlags are the flags every workload has.
type benchFlags struct {
	fs             *flag.FlagSet
	stdout         io.Writer
	dataDir        *string
	jsonOut        *bool
	syncDelay      *time.Duration
	workers        *int
	settings       settingsFlag
	runTime        *time.Duration
	warmup         *time.Duration
	reportInterval *time.Duration
	chart          *string
	yes            *bool
}

func newBenchFlags(name string, stdout, stderr io.Writer) *benchFlags {
	fs := flag.NewFlagSet("plrun bench "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	b := &benchFlags{
		fs:             fs,
		stdout:         stdout,
		dataDir:        fs.String("data", "", "folder for the runs' databases (each run empties its own subfolder); default a temporary folder, removed after"),
		jsonOut:        fs.Bool("json", false, "print one JSON object per configuration instead of text"),
		syncDelay:      fs.Duration("sync-delay", 0, "add this to every log sync (plrun_log_sync_delay_us), e.g. 2ms or 30ms"),
		workers:        fs.Int("workers", 0, "worker pool size (plrun_workers; 0 = engine default)"),
		settings:       settingsFlag{},
		runTime:        fs.Duration("time", 0, "run each configuration for this long (sysbench --time) instead of the count; 0 = the count"),
		warmup:         fs.Duration("warmup", 0, "run unmeasured for this long before each configuration (sysbench --warmup-time)"),
		reportInterval: fs.Duration("report-interval", time.Second, "print a progress line (tps, p95, err/s; an ETA when count-bounded) this often"),
		chart:          fs.String("chart", "", "write a chart of throughput and p95 latency, off vs on, to this .svg or .png file"),
		yes:            fs.Bool("yes", false, "run even if the estimated length is over "+refuseOver.String()),
	}
	fs.Var(b.settings, "set", "set a global variable at open, name=value (repeatable)")
	fs.Usage = func() {
		// Asked-for help goes to stdout; flag errors stay on stderr.
		fmt.Fprintf(stdout, "usage: plrun bench %s [flags]\n\nFlags:\n", name)
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		fs.SetOutput(stderr)
	}
	return b
}

// load is the flags' time bounds and progress reporting.
func (b *benchFlags) load(progress io.Writer) bench.Load {
	return bench.Load{Time: *b.runTime, Warmup: *b.warmup, ReportInterval: *b.reportInterval, Progress: progress}
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
	if *b.runTime < 0 || *b.warmup < 0 || *b.reportInterval <= 0 {
		fmt.Fprintf(b.fs.Output(), "%s: --time and --warmup must be >= 0 and --report-interval > 0\n", b.fs.Name())
		return "", nil, 2, false
	}
	if ext := strings.ToLower(filepath.Ext(*b.chart)); *b.chart != "" && ext != ".svg" && ext != ".png" {
		fmt.Fprintf(b.fs.Output(), "%s: --chart %s: want a .svg or .png file name\n", b.fs.Name(), *b.chart)
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

// explicit reports whether the command line set the named flag.
func (b *benchFlags) explicit(name string) bool {
	set := false
	b.fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// oneBound refuses a command line that gives both --time and the
// workload's count flag: one of them would be ignored.
func (b *benchFlags) oneBound(count string) bool {
	if b.explicit("time") && b.explicit(count) {
		fmt.Fprintf(b.fs.Output(), "%s: give --time or --%s, not both\n", b.fs.Name(), count)
		return false
	}
	return true
}

// writeChart draws c to the --chart file, if one was asked for.
func (b *benchFlags) writeChart(c bench.Chart) int {
	if *b.chart == "" {
		return 0
	}
	for _, s := range c.Series {
		if len(s.X) == 0 {
			fmt.Fprintf(b.fs.Output(), "%s: --chart: %s has no report interval to draw (the run was shorter than --report-interval %v; use --time or a shorter interval)\n",
				b.fs.Name(), s.Name, *b.reportInterval)
			return 1
		}
	}
	if err := bench.WriteChart(*b.chart, c); err != nil {
		fmt.Fprintf(b.fs.Output(), "%s: %v\n", b.fs.Name(), err)
		return 1
	}
	fmt.Fprintf(b.fs.Output(), "chart written to %s\n", *b.chart)
	return 0
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

// overTime is the chart series of one run's report intervals.
func overTime(name string, iv []bench.Interval) bench.ChartSeries {
	s := bench.ChartSeries{Name: name}
	for _, i := range iv {
		s.X = append(s.X, i.AtSec)
		s.TPS = append(s.TPS, i.TPS)
		p95 := i.P95Ms
		if i.Ended == 0 {
			p95 = math.NaN() // no latency was measured there: no point, rather than a 0
		}
		s.P95 = append(s.P95, p95)
	}
	return s
}

// runLength prints a run's length with the precision it needs: a short run
// reads "4.2 ms", not "0.00 s".
func runLength(s float64) string {
	d := time.Duration(s * float64(time.Second))
	switch {
	case d >= 10*time.Second:
		return fmt.Sprintf("%.1f s", s)
	case d >= time.Second:
		return fmt.Sprintf("%.2f s", s)
	case d >= time.Millisecond:
		return fmt.Sprintf("%.1f ms", s*1e3)
	}
	return fmt.Sprintf("%.0f us", s*1e6)
}

var background = context.Background()
