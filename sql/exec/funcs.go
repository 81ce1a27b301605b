package exec

// The built-in functions of sql/funcs register themselves with sql/expr
// when the package is linked: every statement this package compiles
// sees them.
import _ "github.com/plrun/plrun/sql/funcs"
