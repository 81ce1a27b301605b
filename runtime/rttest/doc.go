// Package rttest is the conformance kit for procedure runtimes: a fake
// procs.Host that records what a script asks of it, and one table of cases
// whose scripts are written in both Lua and JavaScript with the same
// semantics, the same expected host calls and the same OUT values. Each
// runtime's tests run the table with Run, so the two languages cannot
// drift apart.
package rttest
