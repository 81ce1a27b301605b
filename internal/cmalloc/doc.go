// Package cmalloc sets the C allocator's policy for the memory pebble
// takes outside the Go heap (its block cache, memtables and compaction
// buffers are C.malloc'd, see pebble's internal/manual).
//
// glibc's malloc gives each thread that finds an arena busy a new one, up
// to eight per core, and a freed block goes back to its own arena, where
// it stays as free space the process still holds. Pebble frees and
// reallocates blocks of many sizes from whichever OS thread the Go
// scheduler runs it on, so under a steady workload every arena ends up
// holding free space: measured on 10M sysbench rows with
// plrun_cache_size=512M, oltp_update_index for 240 s, the process held
// about a dozen arenas of ~50 MiB each for 256 MiB of block cache and
// memtables: peak RSS 1158 MiB. With two arenas the same run peaked at
// 896 MiB (and ran 1.11x faster).
//
// Limit caps the arenas (M_ARENA_MAX). It is process-wide: a program
// calls it once, before the engine opens (cmd/plrun does, first thing);
// an embedder chooses for its own process. Without cgo, or on a libc
// other than glibc, it does nothing.
package cmalloc
