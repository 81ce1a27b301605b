// Package callout is what crosses the boundary between SQL and a stored
// procedure or function: Go values to SQL values and back (values.go),
// the result sets and notes a CALL or DO block hands its caller
// (output.go: collected by the outermost CALL for nested ones too, and
// charged to its memory budget until it is done), and the OUT-parameter
// result set of a prepared CALL (outparams.go). It holds no session
// state: package sql runs the CALL and owns its Output.
package callout
