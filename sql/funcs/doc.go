// Package funcs is most of the built-in SQL functions, a family to a
// file: math (math.go: ABS, ROUND, TRUNCATE, FLOOR, CEIL, MOD, RAND;
// numeric.go the rest), date and time (time.go, datepart.go, datecalc.go
// over sql/datetime), strings (string.go, text.go, list.go), REGEXP
// (regexp.go) and UUID (uuid.go); the JSON functions are sql/jsonfuncs'.
// Each family is an expr.Family, registered with expr.RegisterFamily in
// this package's init; a new function is one case in one family. sql/exec imports the package, so
// every statement compiled sees them. The families that read the session
// or decide control flow (DATABASE(), IF, COALESCE...) and stored
// functions stay in sql/expr.
package funcs

import (
	"github.com/plrun/plrun/sql/expr"
)

func init() {
	for _, f := range []expr.Family{mathFunc, timeFunc, stringFunc, textFunc, regexpFunc, uuidFunc, timeCalcFunc, numericFunc, miscFunc} {
		expr.RegisterFamily(f)
	}
	expr.RegexpOp = regexpOp
}
