// Package metrics is plrun's Prometheus endpoint: a prometheus.Collector
// over engine.Metrics, and the HTTP handler `plrun serve --metrics-listen`
// serves (with net/http/pprof beside it under --pprof).
//
// # Design
//
// The engine's packages own their counters (atomics) and histograms
// (internal/histogram) and know nothing of Prometheus: the layout test
// keeps github.com/prometheus/... out of everything below the faces. This
// package reads them all once per scrape (engine.Metrics) and builds
// constant metrics from the snapshot (MustNewConstMetric,
// MustNewConstHistogram), so a commit, a lock wait or a hot-row group pays
// the same few atomic adds whether anyone scrapes or not, and the numbers
// on /metrics are the ones SHOW GLOBAL STATUS shows.
//
// Each Handler has its own prometheus.Registry (never the global default,
// which other code in the process could fill), holding the plrun
// collector and client_golang's Go runtime and process collectors.
//
// Names are plrun_..., with the unit in the name (_seconds, _bytes) and
// _total on counters. Latency histograms are in seconds; their buckets
// double from 1 microsecond.
package metrics
