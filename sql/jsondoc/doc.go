// Package jsondoc is JSON as MariaDB's JSON functions see it, with no SQL
// in it: a document tree that keeps object keys in the order written
// (node.go), the strict parser JSON_VALID applies (parse.go), printing
// as MariaDB prints function results ({"a": 1, "b": [1, 2]}: a space
// after ':' and ','; numbers as written) (print.go), and JSON paths with
// $, .key, ."key", [n], [last], [*], .* and ** (path.go), over which
// sql/expr builds JSON_EXTRACT, JSON_SET and the rest (edit.go).
package jsondoc
