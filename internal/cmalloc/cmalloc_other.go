//go:build !linux || !cgo

package cmalloc

// Limit does nothing here: no glibc.
func Limit(n int) bool { return false }

// Glibc reports whether the process's C library is glibc: not here.
func Glibc() bool { return false }
