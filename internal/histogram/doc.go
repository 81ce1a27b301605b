// Package histogram is a fixed-bucket histogram cheap enough for the
// engine's hot paths (commit pipeline, lock waits, hot-row groups).
//
// Buckets are exponential: the first upper bound is Base and each next one
// doubles it, then +Inf. Observe finds its bucket with one division and a
// bit length, then does two atomic adds (the bucket and the sum); there is
// no lock and no allocation, so any number of goroutines may Observe while
// others take a Snapshot.
//
// A Snapshot's Count is the sum of its buckets, so its buckets are always
// consistent with its count (what Prometheus' histograms require); Sum is
// read separately and may lag or lead them by the observations in flight.
//
// The package knows nothing of Prometheus: the core packages own their
// histograms as values of this type and the metrics package reads their
// snapshots at scrape time.
package histogram
