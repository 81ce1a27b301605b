package bench

import (
	"bufio"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ProcMemory is this process's resident memory as Linux reports it in
// /proc/self/status: VmRSS now and VmHWM, its peak since the process
// started. Both are 0 where there is no /proc (the figures then read
// "n/a").
type ProcMemory struct {
	RSS, Peak int64 // bytes
}

// ReadProcMemory reads /proc/self/status.
func ReadProcMemory() ProcMemory {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return ProcMemory{}
	}
	defer f.Close()
	var m ProcMemory
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		switch name {
		case "VmRSS":
			m.RSS = statusKB(rest)
		case "VmHWM":
			m.Peak = statusKB(rest)
		}
	}
	return m
}

// statusKB reads "   123456 kB" as bytes.
func statusKB(s string) int64 {
	f := strings.Fields(s)
	if len(f) == 0 {
		return 0
	}
	n, err := strconv.ParseInt(f[0], 10, 64)
	if err != nil {
		return 0
	}
	return n << 10
}

// DirBytes is the size of the files below dir (their lengths, summed)
// and how many there are. A file that vanishes while it is walked (the
// table store's compactions delete sstables at any time) is not counted.
func DirBytes(dir string) (bytes int64, files int, err error) {
	err = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			fi, err := d.Info()
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			if err != nil {
				return err
			}
			bytes += fi.Size()
			files++
		}
		return nil
	})
	return bytes, files, err
}

// MB is bytes in MiB, for the reports.
func MB(bytes int64) float64 { return float64(bytes) / (1 << 20) }
