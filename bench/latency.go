package bench

import (
	"os"
	"path/filepath"
	"slices"
	"time"
)

// Percentiles summarizes a set of latencies.
type Percentiles struct {
	P50, P95, P99, Max time.Duration
}

// Summarize sorts lat in place and reads its percentiles (nearest rank).
func Summarize(lat []time.Duration) Percentiles {
	if len(lat) == 0 {
		return Percentiles{}
	}
	slices.Sort(lat)
	at := func(p float64) time.Duration {
		i := int(p*float64(len(lat))+0.5) - 1
		return lat[max(0, min(i, len(lat)-1))]
	}
	return Percentiles{P50: at(0.50), P95: at(0.95), P99: at(0.99), Max: lat[len(lat)-1]}
}

// MeasureFsync appends a 512-byte block to a scratch file in dir and
// fsyncs it, probes times, and returns the median time of one write+fsync:
// what one log sync costs on this disk, right now. The file is removed.
func MeasureFsync(dir string, probes int) (time.Duration, error) {
	if probes <= 0 {
		probes = 200
	}
	f, err := os.CreateTemp(dir, "fsync-probe-*")
	if err != nil {
		return 0, err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	block := make([]byte, 512)
	lat := make([]time.Duration, probes)
	for i := range lat {
		start := time.Now()
		if _, err := f.Write(block); err != nil {
			return 0, err
		}
		if err := f.Sync(); err != nil {
			return 0, err
		}
		lat[i] = time.Since(start)
	}
	return Summarize(lat).P50, nil
}

// freshDir empties (or creates) a run's data directory. It only ever
// removes a directory the run itself names, below the user's --data.
func freshDir(dir string) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	return os.MkdirAll(filepath.Clean(dir), 0o755)
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
