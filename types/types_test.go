package types

import (
	"math"
	"testing"
	"time"

	"github.com/cockroachdb/apd/v3"
)

func dec(s string) Value {
	d, _, err := apd.NewFromString(s)
	if err != nil {
		panic(err)
	}
	return DecimalValue(d)
}

func TestCompare(t *testing.T) {
	cases := []struct {
		a, b Value
		want int
	}{
		{IntValue(1), IntValue(2), -1},
		{IntValue(-1), UintValue(math.MaxUint64), -1},
		{UintValue(math.MaxUint64), IntValue(math.MaxInt64), 1},
		{IntValue(2), dec("2.00"), 0},
		{dec("0.1"), FloatValue(0.1), 0},
		{StringValue("abc"), StringValue("ABC  "), 0},
		{StringValue("10"), IntValue(9), 1},
		{Null, IntValue(0), -1},
		{Null, Null, 0},
	}
	for _, c := range cases {
		if got := Compare(c.a, c.b); got != c.want {
			t.Errorf("Compare(%v, %v) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestArith(t *testing.T) {
	cases := []struct {
		op      Op
		a, b    Value
		want    string
		rangeOf string // "" = no error
	}{
		{OpAdd, IntValue(1), IntValue(2), "3", ""},
		{OpAdd, IntValue(math.MaxInt64), IntValue(1), "", "BIGINT"},
		{OpSub, UintValue(0), IntValue(1), "", "BIGINT UNSIGNED"},
		{OpSub, UintValue(5), IntValue(1), "4", ""},
		{OpAdd, dec("0.1"), dec("0.2"), "0.3", ""},
		{OpMul, dec("1.25"), IntValue(4), "5.00", ""},
		{OpDiv, IntValue(1), IntValue(3), "0.3333", ""},
		{OpDiv, IntValue(1), IntValue(0), "NULL", ""},
		{OpMod, IntValue(7), IntValue(3), "1", ""},
		{OpIntDiv, IntValue(7), IntValue(2), "3", ""},
		{OpAdd, FloatValue(0.5), IntValue(1), "1.5", ""},
		{OpAdd, Null, IntValue(1), "NULL", ""},
	}
	for _, c := range cases {
		v, err := Arith(c.op, c.a, c.b)
		if c.rangeOf != "" {
			re, ok := err.(*RangeError)
			if !ok || re.What != c.rangeOf {
				t.Errorf("%v %c %v: err %v, want %s range error", c.a, c.op, c.b, err, c.rangeOf)
			}
			continue
		}
		if err != nil || v.String() != c.want {
			t.Errorf("%v %c %v = %v, %v; want %s", c.a, c.op, c.b, v, err, c.want)
		}
	}
}

func TestCoerce(t *testing.T) {
	intT := ColType{Base: TInt}
	tiny := ColType{Base: TTinyInt, Unsigned: true}
	d := ColType{Base: TDecimal, Length: 5, Scale: 2}
	vc := ColType{Base: TVarchar, Length: 3}
	cases := []struct {
		v    Value
		t    ColType
		want string
		code uint16
	}{
		{IntValue(2147483647), intT, "2147483647", 0},
		{IntValue(2147483648), intT, "", 1264},
		{IntValue(-1), tiny, "", 1264},
		{StringValue("12"), intT, "12", 0},
		{StringValue("abc"), intT, "", 1366},
		{dec("1.5"), intT, "2", 0},
		{dec("123.456"), d, "123.46", 0},
		{dec("1234.5"), d, "", 1264},
		{StringValue("9.999"), d, "10.00", 0},
		{StringValue("abcd"), vc, "", 1406},
		{StringValue("héé"), vc, "héé", 0},
		{StringValue("2024-05-06 07:08:09"), ColType{Base: TDatetime}, "2024-05-06 07:08:09", 0},
		{StringValue("nope"), ColType{Base: TDatetime}, "", 1292},
	}
	for _, c := range cases {
		v, err := Coerce(c.v, c.t)
		if c.code != 0 {
			ce, ok := err.(*CoerceError)
			if !ok || ce.Code != c.code {
				t.Errorf("Coerce(%v, %s): err %v, want code %d", c.v, c.t.SQL(), err, c.code)
			}
			continue
		}
		if err != nil || v.String() != c.want {
			t.Errorf("Coerce(%v, %s) = %v, %v; want %s", c.v, c.t.SQL(), v, err, c.want)
		}
	}
}

func TestKeyStringEqualIffCompareEqual(t *testing.T) {
	vals := []Value{IntValue(1), UintValue(1), dec("1.0"), dec("1"), StringValue("a"), StringValue("A "), StringValue("b"), Null, dec("0"), dec("-0.00")}
	for _, a := range vals {
		for _, b := range vals {
			if a.K != b.K && !(a.IsNumeric() && b.IsNumeric() && a.K != KindDecimal && b.K != KindDecimal) && !(a.K == KindDecimal && b.K == KindDecimal) {
				continue
			}
			eq := string(KeyString(nil, a)) == string(KeyString(nil, b))
			if want := Compare(a, b) == 0; eq != want {
				t.Errorf("KeyString(%v)==KeyString(%v) is %v, Compare says %v", a, b, eq, want)
			}
		}
	}
}

func TestRowCodecRoundTrip(t *testing.T) {
	row := []Value{Null, IntValue(-5), UintValue(math.MaxUint64), FloatValue(1.25), dec("-12.50"), StringValue("héllo"), TimeValue(mustTime("2024-01-02 03:04:05"))}
	buf := AppendRow(nil, row)
	got, rest, err := DecodeRow(buf)
	if err != nil || len(rest) != 0 || len(got) != len(row) {
		t.Fatalf("DecodeRow: %v, %d rest, %d values", err, len(rest), len(got))
	}
	for i := range row {
		if got[i].K != row[i].K || got[i].String() != row[i].String() {
			t.Errorf("value %d: got %v, want %v", i, got[i], row[i])
		}
	}
	// Every truncation is an error (the count says more values follow),
	// never a panic.
	for n := 0; n < len(buf); n++ {
		if _, _, err := DecodeRow(buf[:n]); err == nil {
			t.Errorf("DecodeRow of a %d-byte prefix of %d bytes succeeded", n, len(buf))
		}
	}
}

func mustTime(s string) time.Time {
	t, ok := ParseTime(s)
	if !ok {
		panic(s)
	}
	return t
}

func TestCastStringToInt(t *testing.T) {
	for s, want := range map[string]int64{"9007199254740993": 9007199254740993, " 42 ": 42, "12.5": 13, "-3": -3} {
		if got, ok := StringValue(s).ToInt64(); !ok || got != want {
			t.Errorf("ToInt64(%q) = %d, %v; want %d", s, got, ok, want)
		}
	}
}
