package main

import (
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/plrun/plrun/bench"
)

func TestBenchHelpListsEveryWorkload(t *testing.T) {
	status, out, _ := plrunCLI(t, "", "bench", "--help")
	if status != 0 {
		t.Fatalf("status %d", status)
	}
	for _, want := range []string{"hotrow", "inventory", "plcommit", "largetrx", "--time", "--warmup", "--report-interval", "--chart", "--yes"} {
		if !strings.Contains(out, want) {
			t.Errorf("plrun bench --help (stdout) lacks %q:\n%s", want, out)
		}
	}
	status, out, _ = plrunCLI(t, "", "bench", "inventory", "--help")
	if status != 0 || !strings.Contains(out, "-threads") || !strings.Contains(out, "-hotspot") {
		t.Errorf("plrun bench inventory --help: status %d, stdout %q", status, out)
	}
}

// The README's slow-log example with the default counts would run for
// about 52 minutes with ELR off: it is refused before it starts, with
// the estimate and what to do instead.
func TestBenchRefusesAnAbsurdlyLongRun(t *testing.T) {
	status, out, errOut := plrunCLI(t, "", "bench", "hotrow", "--elr", "both", "--sync-delay", "30ms")
	if status != 2 || out != "" {
		t.Fatalf("status %d, stdout %q", status, out)
	}
	for _, want := range []string{"estimated length about 5", "100000 serial updates", "refused", "--time", "--yes"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q: %s", want, errOut)
		}
	}
}

// A plcommit run shorter than 5 ms used to read "... commits/s over
// 0.00 s"; a run whose CALLs all failed has no rate at all.
func TestPlcommitSummaryNeverReadsZeroSeconds(t *testing.T) {
	var out strings.Builder
	printPlcommit(&out, &bench.PlcommitResult{Lang: "lua", Async: true, Iterations: 10, Calls: 1, Concurrency: 1,
		CallSec: []float64{0.0042}, MeanCallSec: 0.0042, ElapsedSec: 0.0042, CommitsPerS: 2380, Rows: 10, Verified: true})
	if s := out.String(); strings.Contains(s, "0.00 s") || !strings.Contains(s, "over 4.2 ms") {
		t.Errorf("short run:\n%s", s)
	}
	out.Reset()
	printPlcommit(&out, &bench.PlcommitResult{Lang: "lua", Iterations: 10, Calls: 1, Concurrency: 1, FirstError: "boom"})
	if s := out.String(); strings.Contains(s, "commits/s over") || !strings.Contains(s, "no CALL succeeded") {
		t.Errorf("failed run:\n%s", s)
	}
	for s, want := range map[float64]string{0.0000042: "4 us", 0.0042: "4.2 ms", 1.5: "1.50 s", 25: "25.0 s"} {
		if got := runLength(s); got != want {
			t.Errorf("runLength(%v) = %q, want %q", s, got, want)
		}
	}
}

// svgLabels returns every <text> of an SVG file, failing on bad XML.
func svgLabels(t *testing.T, path string) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	labels := map[string]bool{}
	dec := xml.NewDecoder(strings.NewReader(string(data)))
	inText := false
	for {
		tok, err := dec.Token()
		if err != nil {
			if err == io.EOF {
				break
			}
			t.Fatalf("%s: not valid XML: %v", path, err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			inText = tok.Name.Local == "text"
		case xml.CharData:
			if inText {
				labels[strings.TrimSpace(string(tok))] = true
			}
		case xml.EndElement:
			inText = false
		}
	}
	return labels
}

func TestBenchInventorySweepTableAndChart(t *testing.T) {
	chart := filepath.Join(t.TempDir(), "inventory.svg")
	status, out, errOut := plrunCLI(t, "", "bench", "inventory", "--threads", "1,8", "--updates", "5",
		"--warmup", "0", "--chart", chart)
	if status != 0 {
		t.Fatalf("status %d\nstdout %s\nstderr %s", status, out, errOut)
	}
	for _, want := range []string{"QPS\n", "95th percentile latency (ms)", "Concurrency", "plrun hotspot off", "plrun hotspot on",
		"plrun on/off", "PolarDB 8.0 hotspot on", "1237.28", "7443.04", "every point's c grew by exactly"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "12244.19") {
		t.Errorf("the table shows PolarDB's 16-thread figure, but only 1 and 8 threads ran:\n%s", out)
	}
	labels := svgLabels(t, chart)
	for _, want := range []string{"plrun hotspot off", "plrun hotspot on", "PolarDB 8.0 hotspot off", "QPS", "threads"} {
		if !labels[want] {
			t.Errorf("chart lacks the label %q", want)
		}
	}
}

func TestBenchHotrowTimeModeChartsOverTime(t *testing.T) {
	chart := filepath.Join(t.TempDir(), "hotrow.svg")
	status, out, errOut := plrunCLI(t, "", "bench", "hotrow", "--threads", "4", "--time", "500ms", "--warmup", "50ms",
		"--report-interval", "100ms", "--chart", chart)
	if status != 0 {
		t.Fatalf("status %d\nstdout %s\nstderr %s", status, out, errOut)
	}
	if !strings.Contains(errOut, "] thds: 4 tps: ") || !strings.Contains(errOut, "lat (ms,95%): ") || !strings.Contains(errOut, "err/s: 0.00") {
		t.Errorf("no sysbench-style interval lines:\n%s", errOut)
	}
	if strings.Contains(errOut, "eta:") {
		t.Errorf("a time-bounded run shows an ETA:\n%s", errOut)
	}
	if !strings.Contains(out, "updating one row for 500.0 ms") || !strings.Contains(out, "in the warm-up") || strings.Contains(out, "WRONG") {
		t.Errorf("summary:\n%s", out)
	}
	labels := svgLabels(t, chart)
	if !labels["ELR off"] || !labels["ELR on"] || !labels["time (s)"] {
		t.Errorf("chart labels %v lack ELR off / ELR on / time (s)", labels)
	}
}

func TestBenchLargeTrxRefusesTime(t *testing.T) {
	status, _, errOut := plrunCLI(t, "", "bench", "largetrx", "--time", "5s")
	if status != 2 || !strings.Contains(errOut, "--time does not apply") {
		t.Errorf("status %d, stderr %q", status, errOut)
	}
}

func TestPlrunHelpListsEveryBenchWorkload(t *testing.T) {
	_, out, errOut := plrunCLI(t, "", "help")
	for _, wl := range benchWorkloads {
		if !strings.Contains(out+errOut, "plrun bench "+wl.name) {
			t.Errorf("plrun help lacks plrun bench %s", wl.name)
		}
	}
	if !strings.Contains(out+errOut, "--chart") {
		t.Errorf("plrun help does not point at the bench flags")
	}
}

func TestBenchRefusesTimeAndCountTogether(t *testing.T) {
	for _, args := range [][]string{
		{"hotrow", "--time", "1s", "--updates", "10"},
		{"plcommit", "--time", "1s", "--calls", "2"},
		{"inventory", "--time", "1s", "--updates", "10"},
	} {
		status, _, errOut := plrunCLI(t, "", append([]string{"bench"}, args...)...)
		if status != 2 || !strings.Contains(errOut, "give --time or --") {
			t.Errorf("%v: status %d, stderr %q", args, status, errOut)
		}
	}
}

func TestBenchLengthGuard(t *testing.T) {
	for _, c := range []struct {
		total   time.Duration
		yes     bool
		ok      bool
		printed string
	}{
		{30 * time.Second, false, true, ""},
		{2 * time.Minute, false, true, "estimated length about 2m0s (part 2m0s)\n"},
		{11 * time.Minute, false, false, "refused, over 10m0s"},
		{11 * time.Minute, true, true, "estimated length about 11m0s"},
	} {
		e := &runEstimate{}
		e.add("part", c.total)
		var out strings.Builder
		ok := e.guard("x", c.yes, &out)
		if ok != c.ok || (c.printed == "") != (out.Len() == 0) || !strings.Contains(out.String(), c.printed) {
			t.Errorf("%v yes=%v: ok %v, printed %q", c.total, c.yes, ok, out.String())
		}
		if c.yes && strings.Contains(out.String(), "refused") {
			t.Errorf("--yes still refused: %q", out.String())
		}
	}
}

func TestPlcommitLangs(t *testing.T) {
	for flag, want := range map[string]string{"sql": "sql", "sql,lua,js": "sql lua js", "both": "lua js", "all": "sql lua js", "js, sql": "js sql"} {
		got, err := plcommitLangs(flag)
		if err != nil || strings.Join(got, " ") != want {
			t.Errorf("plcommitLangs(%q) = %v, %v; want %s", flag, got, err, want)
		}
	}
	for _, bad := range []string{"cobol", "sql,sql", "", "lua,"} {
		if _, err := plcommitLangs(bad); err == nil {
			t.Errorf("plcommitLangs(%q): no error", bad)
		}
	}
}
