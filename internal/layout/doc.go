// Package layout holds the test that keeps plrun's package layout: which
// package may import which (see README "Architecture"). It has no code of
// its own; run it with go test ./internal/layout.
package layout
