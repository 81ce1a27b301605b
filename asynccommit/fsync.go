package asynccommit

import (
	"fmt"
	"os"
	"slices"
	"time"
)

// MeasureFsync times n fsyncs of a small file in dir (each after a 512-byte
// write, as a commit would) and returns the median, so benchmark figures can
// be read against the disk they ran on.
func MeasureFsync(dir string, n int) (median time.Duration, err error) {
	if n <= 0 {
		return 0, fmt.Errorf("asynccommit: MeasureFsync: n = %d", n)
	}
	f, err := os.CreateTemp(dir, "fsync-probe-*")
	if err != nil {
		return 0, err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	buf := make([]byte, 512)
	times := make([]time.Duration, n)
	for i := range times {
		if _, err := f.Write(buf); err != nil {
			return 0, err
		}
		start := time.Now()
		if err := f.Sync(); err != nil {
			return 0, err
		}
		times[i] = time.Since(start)
	}
	slices.Sort(times)
	return times[n/2], nil
}
