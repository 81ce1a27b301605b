package sql

import "io"

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
