package types

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/cockroachdb/apd/v3"
)

// A Value inside a catalog (a column's DEFAULT in the snapshot header and
// the DDL log records) is JSON. JSON strings are UTF-8, and encoding/json
// silently replaces invalid bytes, which would change a byte string's
// default (0xff) across a restart: such an S is written as base64 in B
// instead. Valid text keeps the shape older catalogs have, and those read
// as before.

// valueJSON is Value's JSON shape (the field names of older catalogs).
type valueJSON struct {
	K Kind
	P uint8
	I int64
	F float64
	S string
	D *apd.Decimal
	B []byte `json:",omitempty"`
}

// MarshalJSON writes v as its fields, S as B when it is not UTF-8.
func (v Value) MarshalJSON() ([]byte, error) {
	j := valueJSON{K: v.K, P: v.P, I: v.I, F: v.F, S: v.S, D: v.D}
	if !utf8.ValidString(v.S) {
		j.S, j.B = "", []byte(v.S)
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads what MarshalJSON (or an older catalog) wrote.
func (v *Value) UnmarshalJSON(b []byte) error {
	var j valueJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*v = Value{K: j.K, P: j.P, I: j.I, F: j.F, S: j.S, D: j.D}
	if j.B != nil {
		v.S = string(j.B)
	}
	return nil
}
