package types

import (
	"bytes"
	"encoding/json"
	"testing"
)

// A row written before byte strings and ENUM/SET existed (tag 5, plain
// text) reads back as the text it was; the new values round-trip with
// their marks and numbers; a cut encoding is an error, never a panic.
func TestCodecByteStringsAndMembers(t *testing.T) {
	old := []byte{1, byte(KindString), 2, 'a', 'b'}
	row, rest, err := DecodeRow(old)
	if err != nil || len(rest) != 0 || row[0] != StringValue("ab") {
		t.Fatalf("old row: %+v %v", row, err)
	}
	in := []Value{BytesValue("\x00\xff\xc3("), EnumValue("Two", 2), SetValue("x,z", 5), StringValue("é"), BytesValue("")}
	enc := AppendRow(nil, in)
	out, rest, err := DecodeRow(enc)
	if err != nil || len(rest) != 0 {
		t.Fatal(err)
	}
	for i := range in {
		if out[i] != in[i] {
			t.Errorf("value %d: %+v, want %+v", i, out[i], in[i])
		}
	}
	for n := 0; n < len(enc); n++ {
		if _, _, err := DecodeRow(enc[:n]); err == nil {
			t.Errorf("cut at %d of %d bytes decoded", n, len(enc))
		}
	}
	if _, _, err := DecodeValue([]byte{tagMember, 7, 0, 0}); err == nil {
		t.Error("member tag with a bad mark decoded")
	}
}

func TestByteStringCompareAndKeys(t *testing.T) {
	cases := []struct {
		a, b Value
		want int
	}{
		{BytesValue("a"), StringValue("A"), 1},
		{StringValue("a"), StringValue("A"), 0},
		{BytesValue("a "), BytesValue("a"), 1},
		{BytesValue("\xff"), BytesValue("\x7f"), 1},
		{BytesValue("a"), BytesValue("a\x00"), -1},
		{EnumValue("b", 1), EnumValue("a", 2), -1}, // by index
		{EnumValue("b", 1), StringValue("a"), 1},   // by text
		{EnumValue("b", 1), IntValue(1), 0},        // by number
	}
	for _, c := range cases {
		if got := Compare(c.a, c.b); got != c.want {
			t.Errorf("Compare(%q, %q) = %d, want %d", c.a.S, c.b.S, got, c.want)
		}
	}
	// keys: equal exactly when the bytes are, ordered as Compare orders
	vals := []string{"", "\x00", "\x00\x00", "\x00\x01", "a", "a\x00", "a\x00b", "a\x01", "A", "\xff"}
	for _, x := range vals {
		for _, y := range vals {
			kx, ky := KeyString(nil, BytesValue(x)), KeyString(nil, BytesValue(y))
			if got, want := bytes.Compare(kx, ky), Compare(BytesValue(x), BytesValue(y)); got != want {
				t.Errorf("keys of %q, %q compare %d, values %d", x, y, got, want)
			}
		}
	}
}

func TestCoerceByteStringsEnumSet(t *testing.T) {
	bin4 := ColType{Base: TBinary, Length: 4}
	if v, err := Coerce(StringValue("ab"), bin4); err != nil || v != BytesValue("ab\x00\x00") {
		t.Errorf("BINARY(4) 'ab': %+v %v", v, err)
	}
	if _, err := Coerce(StringValue("abcde"), bin4); err == nil || err.(*CoerceError).Code != 1406 {
		t.Errorf("BINARY(4) 'abcde': %v", err)
	}
	if v, w, err := CoerceLoose(StringValue("abcde"), bin4); err != nil || w != WarnTruncated || v != BytesValue("abcd") {
		t.Errorf("loose BINARY(4) 'abcde': %+v %d %v", v, w, err)
	}
	tiny := ColType{Base: TText, Length: TinyMax}
	if v, w, _ := CoerceLoose(StringValue(string(bytes.Repeat([]byte("é"), 128))), tiny); w != WarnTruncated || len(v.S) != 254 {
		t.Errorf("loose TINYTEXT: %d bytes, warning %d", len(v.S), w)
	}
	e := ColType{Base: TEnum, Members: MembersOf([]string{"small", "Medium"})}
	if v, err := Coerce(StringValue("medium "), e); err != nil || v != EnumValue("Medium", 2) {
		t.Errorf("ENUM 'medium ': %+v %v", v, err)
	}
	if v, err := Coerce(IntValue(1), e); err != nil || v != EnumValue("small", 1) {
		t.Errorf("ENUM 1: %+v %v", v, err)
	}
	for _, bad := range []Value{StringValue("huge"), IntValue(0), IntValue(3), StringValue("")} {
		if v, w, err := CoerceLoose(bad, e); err != nil || w != WarnTruncated || v != EnumValue("", 0) {
			t.Errorf("loose ENUM %+v: %+v %d %v", bad, v, w, err)
		}
	}
	s := ColType{Base: TSet, Members: MembersOf([]string{"a", "b", "c"})}
	if v, err := Coerce(StringValue("c,A,c"), s); err != nil || v != SetValue("a,c", 5) {
		t.Errorf("SET 'c,A,c': %+v %v", v, err)
	}
	if v, w, _ := CoerceLoose(StringValue("a,d,b"), s); w != WarnTruncated || v != SetValue("a,b", 3) {
		t.Errorf("loose SET 'a,d,b': %+v %d", v, w)
	}
	if v, w, _ := CoerceLoose(IntValue(9), s); w != WarnTruncated || v != SetValue("a", 1) {
		t.Errorf("loose SET 9: %+v %d", v, w)
	}
	if n, _ := SetValue("a,c", 5).ToInt64(); n != 5 {
		t.Errorf("SET as a number: %d", n)
	}
}

// A byte-string default that is not UTF-8 survives the catalog's JSON;
// a Value JSON of the older shape reads as before.
func TestValueJSON(t *testing.T) {
	for _, v := range []Value{BytesValue("\xff\x00\xc3"), StringValue("plain"), IntValue(-3), EnumValue("b", 2)} {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var back Value
		if err := json.Unmarshal(b, &back); err != nil || back != v {
			t.Errorf("%s: %+v %v, want %+v", b, back, err, v)
		}
	}
	var old Value
	if err := json.Unmarshal([]byte(`{"K":5,"P":0,"I":0,"F":0,"S":"it's","D":null}`), &old); err != nil || old != StringValue("it's") {
		t.Errorf("old shape: %+v %v", old, err)
	}
}

// The cost of storing an ENUM and a SET value (member lookup) and of
// comparing byte strings against character strings, for BENCHMARKS.md.
func BenchmarkCoerceEnumSet(b *testing.B) {
	e := ColType{Base: TEnum, Members: MembersOf([]string{"pending", "active", "suspended", "closed"})}
	s := ColType{Base: TSet, Members: MembersOf([]string{"read", "write", "exec", "admin"})}
	b.Run("enum", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := Coerce(StringValue("suspended"), e); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("set", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := Coerce(StringValue("write,admin"), s); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkCompareStrings(b *testing.B) {
	x, y := "abcdefghijklmnopqrstuvwxyz0123456789", "abcdefghijklmnopqrstuvwxyz012345678A"
	b.Run("varchar", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			Compare(StringValue(x), StringValue(y))
		}
	})
	b.Run("varbinary", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			Compare(BytesValue(x), BytesValue(y))
		}
	})
}
