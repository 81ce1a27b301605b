// Package jsonfuncs is the JSON functions (json.go: JSON_VALID,
// JSON_EXTRACT, JSON_OBJECT, JSON_ARRAY, JSON_CONTAINS ...; edit.go:
// JSON_SET, JSON_INSERT, JSON_REPLACE, JSON_REMOVE ...; merge.go:
// JSON_MERGE_PATCH / _PRESERVE, JSON_SEARCH ...) over
// sql/jsondoc's tree, paths and printing, and how a JSON value compares
// with a plain one and prints inside JSON_ARRAYAGG / JSON_OBJECTAGG.
// Each family is an expr.Family, registered with expr.RegisterFamily in
// this package's init, as sql/funcs registers the others; sql/exec links
// both.
package jsonfuncs

import (
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/types"
)

func init() {
	for _, f := range []expr.Family{jsonFunc, jsonMergeFunc} {
		expr.RegisterFamily(f)
	}
	expr.JSONComparable = jsonComparable
	expr.JSONText = func(v types.Value, t types.ColType) string { return sqlToJSON(v, t).String() }
}
