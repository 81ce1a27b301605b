package metrics

import (
	"testing"
	"time"

	"github.com/plrun/plrun/engine"
	"github.com/plrun/plrun/internal/histogram"
	"github.com/plrun/plrun/sql/counters"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
)

type fakeSource struct{ m engine.Metrics }

func (f fakeSource) Metrics() engine.Metrics { return f.m }

// TestCollector: a pedantic registry (Describe must match Collect, names
// and help valid, no duplicates) gathers every metric, counters carry the
// snapshot's values, statements are labelled by kind and histograms are
// cumulative, in seconds.
func TestCollector(t *testing.T) {
	lat := histogram.NewDuration(time.Microsecond, 27)
	lat.ObserveDuration(3 * time.Microsecond) // bucket 4us
	lat.ObserveDuration(time.Millisecond)     // bucket 1.024ms
	src := fakeSource{engine.Metrics{
		Statements: counters.Snapshot{Questions: 7, Com: map[string]uint64{"select": 5, "insert": 2}},
		Uptime:     90 * time.Second,
	}}
	src.m.Locks.Deadlocks = 3
	src.m.PipelineHistograms.CommitLatency = lat.Snapshot()
	// Every other histogram is the zero snapshot (no buckets): still valid.
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(NewCollector(src))
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*dto.MetricFamily{}
	for _, f := range families {
		byName[f.GetName()] = f
	}
	if n := len(byName); n != len(scalars)+len(distributions)+1 {
		t.Errorf("%d families, want %d", n, len(scalars)+len(distributions)+1)
	}
	if v := byName["plrun_deadlocks_total"].GetMetric()[0].GetCounter().GetValue(); v != 3 {
		t.Errorf("plrun_deadlocks_total = %v, want 3", v)
	}
	if v := byName["plrun_questions_total"].GetMetric()[0].GetCounter().GetValue(); v != 7 {
		t.Errorf("plrun_questions_total = %v, want 7", v)
	}
	if v := byName["plrun_uptime_seconds"].GetMetric()[0].GetGauge().GetValue(); v != 90 {
		t.Errorf("plrun_uptime_seconds = %v, want 90", v)
	}
	kinds := map[string]float64{}
	for _, m := range byName["plrun_statements_total"].GetMetric() {
		kinds[m.GetLabel()[0].GetValue()] = m.GetCounter().GetValue()
	}
	if kinds["select"] != 5 || kinds["insert"] != 2 || len(kinds) != 2 {
		t.Errorf("statements by kind %v", kinds)
	}
	h := byName["plrun_commit_latency_seconds"].GetMetric()[0].GetHistogram()
	if h.GetSampleCount() != 2 || h.GetSampleSum() < 0.001 || h.GetSampleSum() > 0.00101 {
		t.Errorf("commit latency count %d sum %v", h.GetSampleCount(), h.GetSampleSum())
	}
	for _, b := range h.GetBucket() {
		want := uint64(0)
		switch {
		case b.GetUpperBound() >= 0.001:
			want = 2
		case b.GetUpperBound() >= 4e-6:
			want = 1
		}
		if b.GetCumulativeCount() != want {
			t.Errorf("bucket le=%v holds %d, want %d", b.GetUpperBound(), b.GetCumulativeCount(), want)
		}
	}
}
