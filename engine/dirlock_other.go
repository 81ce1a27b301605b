//go:build !unix

package engine

import "os"

// lockDir is a no-op where flock is not available.
func lockDir(dir string) (*os.File, error) { return nil, nil }
