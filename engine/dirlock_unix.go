//go:build unix

package engine

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"github.com/plrun/plrun/sqlerr"
)

// lockDir takes an exclusive lock on dir's LOCK file so that two processes
// never open one database (each would replay, then overwrite, the other's
// log). The lock goes with the process, so a crash never leaves it held.
func lockDir(dir string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, "LOCK"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, sqlerr.Wrap(err, sqlerr.ErUnknown, "cannot open the data directory's lock file: %v", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, sqlerr.Wrap(ErrDataDirInUse, sqlerr.ErUnknown, "data directory %s is in use by another plrun process", dir)
		}
		return nil, sqlerr.Wrap(err, sqlerr.ErUnknown, "cannot lock the data directory %s: %v", dir, err)
	}
	// Name the holder, for the error a second process gets.
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(fmt.Sprintf("pid %d\n", os.Getpid())), 0)
	}
	return f, nil
}
