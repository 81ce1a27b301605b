//go:build linux && cgo

package cmalloc

/*
#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
static int plrun_arena_max(int n) { return mallopt(M_ARENA_MAX, n); }
static int plrun_glibc(void) { return 1; }
#else
static int plrun_arena_max(int n) { return 0; }
static int plrun_glibc(void) { return 0; }
#endif
*/
import "C"

// Limit caps glibc's malloc arenas at n (n < 1 is 1). It reports whether
// the allocator took the setting.
func Limit(n int) bool {
	return C.plrun_arena_max(C.int(max(n, 1))) == 1
}

// Glibc reports whether the process's C library is glibc.
func Glibc() bool { return C.plrun_glibc() == 1 }
