//go:build race

package enginetest

// raceOn: the test binary runs under the race detector (make test's main
// line), where the longest store tests run 5-10x slower; they run in
// make test's line without it instead (Makefile).
const raceOn = true
