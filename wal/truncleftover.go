package wal

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// removeTruncationTemps removes what a process killed inside tidwall's
// TruncateFront (or TruncateBack) can leave besides a START or END
// segment: the temporary file it writes and fsyncs before renaming it to
// <segment>.START (.END). A temporary file never became part of the log
// (the rename had not happened), and tidwall's open ignores it, so
// without this it would stay in the folder for good. It returns the
// names removed.
func removeTruncationTemps(dir string) ([]string, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("wal: list %s: %w", dir, err)
	}
	var removed []string
	for _, de := range des {
		name := de.Name()
		if de.IsDir() || !isTruncationTemp(name) {
			continue
		}
		if err := os.Remove(filepath.Join(dir, name)); err != nil {
			return removed, fmt.Errorf("wal: remove %s: %w", name, err)
		}
		removed = append(removed, name)
	}
	if len(removed) > 0 {
		if err := syncDir(dir); err != nil {
			return removed, err
		}
	}
	return removed, nil
}

// isTruncationTemp reports whether name is tidwall's temporary file of a
// START or END segment: 20 decimal digits, then .START.TEMP or .END.TEMP.
func isTruncationTemp(name string) bool {
	if len(name) < 20 {
		return false
	}
	if _, err := strconv.ParseUint(name[:20], 10, 64); err != nil {
		return false
	}
	rest := name[20:]
	return rest == ".START.TEMP" || rest == ".END.TEMP"
}
