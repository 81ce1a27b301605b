// Package funcs is most of the built-in SQL functions, a family to a
// file: date and time (time.go, datepart.go, datecalc.go over
// sql/datetime), strings (string.go, text.go, list.go), REGEXP
// (regexp.go), UUID (uuid.go) and JSON (json.go, jsonedit.go over
// sql/jsondoc). Each family is an expr.Family,
// registered with expr.RegisterFamily in this package's init; a new
// function is one case in one family. sql/exec imports the package, so
// every statement compiled sees them. The families that read the session
// or decide control flow (DATABASE(), IF, COALESCE...), math, and
// stored functions stay in sql/expr.
package funcs

import (
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/types"
)

func init() {
	for _, f := range []expr.Family{timeFunc, stringFunc, textFunc, regexpFunc, uuidFunc, jsonFunc, jsonMergeFunc, timeCalcFunc, numericFunc, miscFunc, zoneFunc} {
		expr.RegisterFamily(f)
	}
	expr.RegexpOp = regexpOp
	expr.JSONComparable = jsonComparable
	expr.JSONText = func(v types.Value, t types.ColType) string { return sqlToJSON(v, t).String() }
}
