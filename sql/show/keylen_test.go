package show

import (
	"testing"

	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
)

// EXPLAIN's key_len of a one-column key on each byte-string, ENUM, SET
// and BIT type (all nullable) is MariaDB 10.11's: EXPLAIN SELECT * FROM
// kl WHERE col = ... on
// CREATE TABLE kl (id INT PRIMARY KEY, b BINARY(4), v VARBINARY(6),
// e ENUM('a','b'), s SET('x','y'), bt BIT(10), KEY(b), KEY(v), KEY(e),
// KEY(s), KEY(bt)) gives 5, 9, 2, 2, 3.
func TestKeyLengthOfColumnTypes(t *testing.T) {
	def := &storage.TableDef{Charset: "utf8mb4", Columns: []storage.Column{
		{Name: "b", Type: types.ColType{Base: types.TBinary, Length: 4}},
		{Name: "v", Type: types.ColType{Base: types.TVarbinary, Length: 6}},
		{Name: "e", Type: types.ColType{Base: types.TEnum, Members: types.MembersOf([]string{"a", "b"})}},
		{Name: "s", Type: types.ColType{Base: types.TSet, Members: types.MembersOf([]string{"x", "y"})}},
		{Name: "bt", Type: types.ColType{Base: types.TBit, Length: 10}},
	}}
	for i, want := range []int{5, 9, 2, 2, 3} {
		if got := keyLength(def, []int{i}); got != want {
			t.Errorf("key_len of %s: %d, want %d", def.Columns[i].Name, got, want)
		}
	}
}
