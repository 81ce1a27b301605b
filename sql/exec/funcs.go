package exec

// The built-in functions of sql/funcs and sql/jsonfuncs register
// themselves with sql/expr when the packages are linked: every statement
// this package compiles sees them.
import (
	_ "github.com/plrun/plrun/sql/funcs"
	_ "github.com/plrun/plrun/sql/jsonfuncs"
)
