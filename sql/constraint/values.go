package constraint

import (
	"strings"

	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
)

// valuesAt picks row's values at cols; ok is false when one is NULL.
func valuesAt(row []types.Value, cols []int) ([]types.Value, bool) {
	out := make([]types.Value, len(cols))
	for i, c := range cols {
		if row[c].IsNull() {
			return nil, false
		}
		out[i] = row[c]
	}
	return out, true
}

func pick(row []types.Value, cols []int) []types.Value {
	out := make([]types.Value, len(cols))
	for i, c := range cols {
		out[i] = row[c]
	}
	return out
}

// sameValues compares keys as an index does (so 'a' and 'A' are one key
// under the case-insensitive collation).
func sameValues(a, b []types.Value) bool {
	return storage.KeyOf(a) == storage.KeyOf(b)
}

func matches(row []types.Value, cols []int, key []types.Value) bool {
	v, ok := valuesAt(row, cols)
	return ok && sameValues(v, key)
}

func sameCols(a, b []int) bool {
	if len(a) != len(b) || len(a) == 0 {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// columnsOf resolves a foreign key's parent column names in def.
func columnsOf(def *storage.TableDef, names []string) ([]int, bool) {
	out := make([]int, len(names))
	for i, n := range names {
		c := def.ColumnIndex(n)
		if c < 0 {
			return nil, false
		}
		out[i] = c
	}
	return out, true
}

func joinValues(vs []types.Value) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = v.String()
	}
	return strings.Join(parts, "-")
}
