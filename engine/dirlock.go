package engine

import (
	"errors"
	"io"
)

// ErrDataDirInUse is wrapped by Open's error when another process holds
// the data directory; its LOCK file names that process ("pid N").
var ErrDataDirInUse = errors.New("data directory in use")

// LockDataDir takes the data directory's lock, as Open does, for tools
// that change its files without opening it (plrun recover). Close releases
// it.
func LockDataDir(dir string) (io.Closer, error) {
	f, err := lockDir(dir)
	if err != nil {
		return nil, err
	}
	if f == nil {
		return io.NopCloser(nil), nil
	}
	return f, nil
}
