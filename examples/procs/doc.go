// Package examples holds example procedure files (*.lua, *.js) and the test
// that loads, compiles and runs them; see README.md.
package examples
