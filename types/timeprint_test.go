package types

import (
	"testing"
	"time"
)

// A DATE and a DATETIME(fsp) print as their type does, in results, in
// string contexts and as numbers; a stored value keeps none of it (the
// column's type gives it back).
func TestTimeValuePrinting(t *testing.T) {
	tm := time.Date(2024, 2, 29, 13, 4, 5, 250000000, time.UTC)
	cases := []struct {
		v    Value
		text string
		num  int64
	}{
		{DateValue(tm), "2024-02-29", 20240229},
		{TimeValueFsp(tm, 3), "2024-02-29 13:04:05.250", 20240229130405},
		{TimeValue(tm), "2024-02-29 13:04:05", 20240229130405},
	}
	for _, c := range cases {
		if got := c.v.String(); got != c.text {
			t.Errorf("%v prints %q, want %q", c.v, got, c.text)
		}
		if n, _ := c.v.ToInt64(); n != c.num {
			t.Errorf("%q as a number is %d, want %d", c.text, n, c.num)
		}
	}
	d, err := Coerce(StringValue("2024-02-29 13:04:05"), ColType{Base: TDate})
	if err != nil || !d.IsDate() || d.String() != "2024-02-29" {
		t.Errorf("into a DATE: %v %v", d, err)
	}
	s, err := Coerce(DateValue(tm), ColType{Base: TVarchar, Length: 20})
	if err != nil || s.String() != "2024-02-29" {
		t.Errorf("a DATE into a VARCHAR: %v %v", s, err)
	}
	dec, _, _ := DecodeValue(AppendValue(nil, DateValue(tm)))
	if dec.P != 0 || Compare(dec, DateValue(tm)) != 0 {
		t.Errorf("decoded %+v", dec)
	}
}
