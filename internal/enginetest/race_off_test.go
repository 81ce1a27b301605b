//go:build !race

package enginetest

// raceOn: see race_on_test.go.
const raceOn = false
