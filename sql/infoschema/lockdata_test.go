package infoschema

import (
	"testing"

	"github.com/cockroachdb/apd/v3"
	"github.com/plrun/plrun/types"
)

// TestKeyData: a lock key (types.KeyString's encoding) prints as InnoDB's
// lock_data does, and bytes that are no key print quoted rather than
// failing.
func TestKeyData(t *testing.T) {
	d, _, _ := apd.NewFromString("-12.50")
	key := func(vs ...types.Value) string {
		var b []byte
		for _, v := range vs {
			b = types.KeyString(b, v)
		}
		return string(b)
	}
	for _, c := range []struct{ key, want string }{
		{key(types.IntValue(7)), "7"},
		{key(types.IntValue(1), types.StringValue("Ab c")), "1,'AB C'"},
		{key(types.Null, types.DecimalValue(d)), "NULL,-12.5"},
		{"s\x00unterminated", `"s\x00unterminated"`},
		{"n12", `"n12"`},
		{"", ""},
	} {
		if got := keyData(c.key); got != c.want {
			t.Errorf("keyData(%q) = %q, want %q", c.key, got, c.want)
		}
	}
}

// TestRowKeyData: a row's lock key (storage.KeyOf, types.AppendKey's
// encoding) prints the same way; bytes that are no key print quoted.
func TestRowKeyData(t *testing.T) {
	d, _, _ := apd.NewFromString("-12.50")
	key := func(vs ...types.Value) string {
		var b []byte
		for _, v := range vs {
			b = types.AppendKey(b, v)
		}
		return string(b)
	}
	for _, c := range []struct{ key, want string }{
		{key(types.IntValue(7)), "7"},
		{key(types.UintValue(1<<63), types.StringValue("Ab c  ")), "9223372036854775808,'AB C'"},
		{key(types.Null, types.DecimalValue(d), types.EnumValue("x", 3)), "NULL,-12.5,3"},
		{key(types.BytesValue("a\x00b")), "'a\x00b'"},
		{key(types.IntValue(7))[:5], `"!\x00\x00\x00\x00"`},
		{"n12", `"n12"`},
		{"", ""},
	} {
		if got := rowKeyData(c.key); got != c.want {
			t.Errorf("rowKeyData(%q) = %q, want %q", c.key, got, c.want)
		}
	}
}
