// Package funcs is most of the built-in SQL functions, a family to a
// file: the session's (session.go: DATABASE(), USER(), CONNECTION_ID(),
// LAST_INSERT_ID(), SLEEP() ...), control flow (control.go: IF, IFNULL,
// COALESCE, NULLIF, GREATEST, LEAST), math (math.go: ABS, ROUND,
// TRUNCATE, FLOOR, CEIL, MOD, RAND; numeric.go the rest), date and time (time.go, datepart.go, datecalc.go
// over sql/datetime), strings (string.go, text.go, list.go), REGEXP
// (regexp.go) and UUID (uuid.go); the JSON functions are sql/jsonfuncs'.
// Each family is an expr.Family, registered with expr.RegisterFamily in
// this package's init; a new function is one case in one family. sql/exec imports the package, so
// every statement compiled sees them. Stored functions are called by
// sql/expr (funcs_stored.go).
package funcs

import (
	"github.com/plrun/plrun/sql/expr"
)

func init() {
	for _, f := range []expr.Family{sessionFunc, mathFunc, controlFunc, timeFunc, stringFunc, textFunc, regexpFunc, uuidFunc, timeCalcFunc, numericFunc, miscFunc, zoneFunc} {
		expr.RegisterFamily(f)
	}
	expr.RegexpOp = regexpOp
}
