package metrics

import (
	"github.com/plrun/plrun/engine"
	"github.com/plrun/plrun/internal/histogram"
	"github.com/prometheus/client_golang/prometheus"
)

// Source is what the collector reads at each scrape: *engine.Engine.
type Source interface {
	Metrics() engine.Metrics
}

// Collector is a prometheus.Collector over a Source.
type Collector struct {
	src Source
}

// NewCollector returns a collector reading src at every scrape.
func NewCollector(src Source) *Collector { return &Collector{src: src} }

// scalar is one counter or gauge read from a snapshot.
type scalar struct {
	desc  *prometheus.Desc
	kind  prometheus.ValueType
	value func(m *engine.Metrics) float64
}

// distribution is one histogram read from a snapshot; scale turns its
// unit (nanoseconds, members) into the metric's (seconds, members).
type distribution struct {
	desc  *prometheus.Desc
	scale float64
	value func(m *engine.Metrics) histogram.Snapshot
}

const nanosecond = 1e-9

func counter(name, help string, value func(m *engine.Metrics) float64) scalar {
	return scalar{prometheus.NewDesc(name, help, nil, nil), prometheus.CounterValue, value}
}

func gauge(name, help string, value func(m *engine.Metrics) float64) scalar {
	return scalar{prometheus.NewDesc(name, help, nil, nil), prometheus.GaugeValue, value}
}

func hist(name, help string, scale float64, value func(m *engine.Metrics) histogram.Snapshot) distribution {
	return distribution{prometheus.NewDesc(name, help, nil, nil), scale, value}
}

// statementsDesc is Com_xxx with the statement kind as a label.
var statementsDesc = prometheus.NewDesc("plrun_statements_total",
	"Statements run, by kind: the Com_xxx counters of SHOW GLOBAL STATUS (kind=select is Com_select), client statements and those procedures ran.",
	[]string{"kind"}, nil)

// Describe sends every metric's description.
func (c *Collector) Describe(ch chan<- *prometheus.Desc) {
	for _, s := range scalars {
		ch <- s.desc
	}
	for _, d := range distributions {
		ch <- d.desc
	}
	ch <- statementsDesc
}

// Collect reads the source once and sends every metric built from it.
func (c *Collector) Collect(ch chan<- prometheus.Metric) {
	m := c.src.Metrics()
	for _, s := range scalars {
		ch <- prometheus.MustNewConstMetric(s.desc, s.kind, s.value(&m))
	}
	for _, d := range distributions {
		ch <- constHistogram(d.desc, d.value(&m), d.scale)
	}
	for kind, n := range m.Statements.Com {
		ch <- prometheus.MustNewConstMetric(statementsDesc, prometheus.CounterValue, float64(n), kind)
	}
}

// constHistogram turns a snapshot (per-bucket counts) into Prometheus'
// cumulative buckets; the +Inf bucket is the count.
func constHistogram(desc *prometheus.Desc, s histogram.Snapshot, scale float64) prometheus.Metric {
	buckets := make(map[float64]uint64, len(s.Bounds))
	var cum uint64
	for i, bound := range s.Bounds {
		cum += s.Counts[i]
		buckets[float64(bound)*scale] = cum
	}
	return prometheus.MustNewConstHistogram(desc, s.Count, float64(s.Sum)*scale, buckets)
}
