package types

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/cockroachdb/apd/v3"
)

// keyColumns are the column types the key properties are checked over.
var keyColumns = []struct {
	name string
	t    ColType
}{
	{"INT", ColType{Base: TInt}},
	{"INT UNSIGNED", ColType{Base: TInt, Unsigned: true}},
	{"BIGINT", ColType{Base: TBigInt}},
	{"BIGINT UNSIGNED", ColType{Base: TBigInt, Unsigned: true}},
	{"DECIMAL(10,2)", ColType{Base: TDecimal, Length: 10, Scale: 2}},
	{"DECIMAL(30,10)", ColType{Base: TDecimal, Length: 30, Scale: 10}},
	{"DOUBLE", ColType{Base: TDouble}},
	{"FLOAT", ColType{Base: TFloat}},
	{"CHAR(10)", ColType{Base: TChar, Length: 10}},
	{"VARCHAR(20)", ColType{Base: TVarchar, Length: 20}},
	{"VARBINARY(20)", ColType{Base: TVarbinary, Length: 20}},
	{"BINARY(6)", ColType{Base: TBinary, Length: 6}},
	{"DATE", ColType{Base: TDate}},
	{"DATETIME(6)", ColType{Base: TDatetime, Scale: 6}},
	{"TIMESTAMP", ColType{Base: TTimestamp}},
	{"TIME(6)", ColType{Base: TTime, Scale: 6}},
	{"YEAR", ColType{Base: TYear}},
	{"ENUM", ColType{Base: TEnum, Members: MembersOf([]string{"b", "A", "c d", "É", "a\x01"})}},
	{"SET", ColType{Base: TSet, Members: MembersOf([]string{"b", "A", "c d", "É", "z"})}},
	{"BIT(12)", ColType{Base: TBit, Length: 12}},
}

// rawValue builds an uncoerced value of one of several kinds from fuzz
// input; Coerce then makes it a column's value.
func rawValue(kind uint8, s string) Value {
	var n [8]byte
	copy(n[:], s)
	u := binary.BigEndian.Uint64(n[:])
	switch kind % 8 {
	case 1:
		return IntValue(int64(u))
	case 2:
		return UintValue(u)
	case 3:
		return FloatValue(math.Float64frombits(u))
	case 4:
		if d, _, err := apd.NewFromString(s); err == nil {
			return DecimalValue(d)
		}
	case 5:
		return BytesValue(s)
	case 6:
		return IntValue(int64(len(s)) - 4 + int64(int8(n[0])))
	case 7:
		return FloatValue(float64(int8(n[0])) / 8)
	}
	return StringValue(s)
}

func sign(c int) int {
	switch {
	case c < 0:
		return -1
	case c > 0:
		return 1
	}
	return 0
}

func isNaN(v Value) bool { return v.K == KindFloat && math.IsNaN(v.F) }
func isInf(v Value) bool { return v.K == KindFloat && math.IsInf(v.F, 0) }

// checkKeyPair checks the three properties for two values of one column
// type (NULL included).
func checkKeyPair(t *testing.T, col string, a, b Value) {
	t.Helper()
	if isNaN(a) || isNaN(b) {
		return // Compare has NaN equal to everything: no order to keep
	}
	ka, kb := AppendKey(nil, a), AppendKey(nil, b)
	want := sign(Compare(a, b))
	if got := sign(bytes.Compare(ka, kb)); got != want {
		t.Fatalf("%s: order of %#v (%x) and %#v (%x): keys say %d, Compare %d", col, a, ka, b, kb, got, want)
	}
	// FormatFloat prints -Inf, +Inf as NULL, so KeyString has them equal:
	// the keys keep their order instead (only FLOAT's coercion of a
	// too-large number makes them).
	if !isInf(a) && !isInf(b) {
		ks := string(KeyString(nil, a)) == string(KeyString(nil, b))
		if eq := bytes.Equal(ka, kb); eq != ks {
			t.Fatalf("%s: equality of %#v and %#v: keys %v, KeyString %v", col, a, b, eq, ks)
		}
	}
	if !bytes.Equal(ka, kb) && (bytes.HasPrefix(ka, kb) || bytes.HasPrefix(kb, ka)) {
		t.Fatalf("%s: %x and %x: one key prefixes the other", col, ka, kb)
	}
	// tuples order component by component; SkipKey finds the boundary
	ab := AppendKey(append([]byte(nil), ka...), b)
	ba := AppendKey(append([]byte(nil), kb...), a)
	want = sign(Compare(a, b))
	if want == 0 {
		want = sign(Compare(b, a))
	}
	if got := sign(bytes.Compare(ab, ba)); got != want {
		t.Fatalf("%s: tuple (%v,%v) vs (%v,%v): keys say %d, want %d", col, a, b, b, a, got, want)
	}
	if n, err := SkipKey(ab); err != nil || n != len(ka) {
		t.Fatalf("%s: SkipKey(%x) = %d, %v; want %d", col, ab, n, err, len(ka))
	}
	checkDecode(t, col, a, ab[:len(ka)])
}

// checkDecode checks DecodeKey on key k of v: the same key back for what
// is invertible, ErrKeyNotInvertible for the rest.
func checkDecode(t *testing.T, col string, v Value, k []byte) {
	t.Helper()
	tail := []byte{0xaa}
	d, rest, err := DecodeKey(append(append([]byte(nil), k...), tail...))
	folded := v.K == KindString && !v.IsBinary()
	switch {
	case folded:
		if !errors.Is(err, ErrKeyNotInvertible) {
			t.Fatalf("%s: DecodeKey of folded %#v: %v, %v", col, v, d, err)
		}
	case err != nil:
		t.Fatalf("%s: DecodeKey(%x) of %#v: %v", col, k, v, err)
	case !bytes.Equal(rest, tail):
		t.Fatalf("%s: DecodeKey(%x) left %x", col, k, rest)
	case !bytes.Equal(AppendKey(nil, d), k) || Compare(d, v) != 0:
		t.Fatalf("%s: DecodeKey(%x) = %#v, not %#v", col, k, d, v)
	case v.K != KindDecimal && v.K != KindInt && v.K != KindUint && d.K != v.K:
		t.Fatalf("%s: DecodeKey(%x) = %#v, kind of %#v", col, k, d, v)
	}
}

func FuzzKeyOrder(f *testing.F) {
	seeds := []struct {
		ka uint8
		a  string
		kb uint8
		b  string
	}{
		{0, "a", 0, "A "}, {0, "a", 0, "a\x00"}, {0, "ab", 0, "a"}, {0, "é", 0, "É"}, {0, "_", 0, "z"},
		{0, "1.50", 0, "1.5"}, {0, "-0", 0, "0"}, {0, "-1.5", 0, "-1.45"}, {4, "12345678.91", 4, "-0.01"},
		{3, "\x80", 3, "\x00"}, {7, "\x01", 7, "\xff"}, {1, "\xff\xff\xff\xff\xff\xff\xff\xff", 1, "\x7f"},
		{2, "\xff\xff\xff\xff\xff\xff\xff\xff", 6, "x"}, {0, "2020-01-02 03:04:05.123456", 0, "2020-01-02"},
		{0, "1999-12-31 23:59:59", 0, "0001-01-01"}, {0, "-838:59:59", 0, "12:00:00.000001"},
		{0, "1999", 0, "2155"}, {0, "b", 0, "A"}, {0, "c d,b", 0, "z"}, {5, "\x00\x01", 5, "\x00"},
		{0, "0x05", 6, "z"}, {4, "1e39", 0, "1e38"},
	}
	for i, s := range seeds {
		f.Add(uint8(i), s.ka, s.a, s.kb, s.b)
	}
	f.Fuzz(func(t *testing.T, col uint8, ka uint8, a string, kb uint8, b string) {
		c := keyColumns[int(col)%len(keyColumns)]
		va, errA := Coerce(rawValue(ka, a), c.t)
		vb, errB := Coerce(rawValue(kb, b), c.t)
		if errA != nil {
			va = Null
		}
		if errB != nil {
			vb = Null
		}
		checkKeyPair(t, c.name, va, vb)
	})
}

// TestKeyOrderColumns runs the fuzz properties over random values of
// every column type (go test runs a fuzz target's seeds only).
func TestKeyOrderColumns(t *testing.T) {
	r := rand.New(rand.NewSource(23))
	for _, c := range keyColumns {
		var vals []Value
		for len(vals) < 120 {
			v, err := Coerce(randomRaw(r), c.t)
			if err == nil {
				vals = append(vals, v)
			}
		}
		vals = append(vals, Null)
		for _, a := range vals {
			for _, b := range vals {
				checkKeyPair(t, c.name, a, b)
			}
		}
	}
}

func randomRaw(r *rand.Rand) Value {
	words := []string{"", "a", "A", "b", "B", " ", "é", "É", "\x00", "\x01", "z", "_", "c d", "ß", "\xff"}
	switch r.Intn(10) {
	case 0:
		var s string
		for n := r.Intn(4); n > 0; n-- {
			s += words[r.Intn(len(words))]
		}
		return StringValue(s)
	case 1:
		return IntValue(r.Int63n(2001) - 1000)
	case 2:
		return UintValue(r.Uint64() >> uint(r.Intn(64)))
	case 3:
		return IntValue(int64(r.Uint64()))
	case 4:
		return FloatValue((r.Float64() - 0.5) * math.Pow(10, float64(r.Intn(40)-20)))
	case 5:
		return StringValue(fmt.Sprintf("%d.%0*d", r.Intn(2001)-1000, r.Intn(12), r.Intn(100000)))
	case 6:
		return StringValue(fmt.Sprintf("%04d-%02d-%02d %02d:%02d:%02d.%06d", r.Intn(3000)+1, r.Intn(12)+1,
			r.Intn(28)+1, r.Intn(24), r.Intn(60), r.Intn(60), r.Intn(3)*r.Intn(1000000)))
	case 7:
		return StringValue(fmt.Sprintf("%d:%02d:%02d.%06d", r.Intn(1677)-838, r.Intn(60), r.Intn(60), r.Intn(3)*r.Intn(1000000)))
	case 8:
		return IntValue(r.Int63n(300) + 1900)
	}
	b := make([]byte, r.Intn(7))
	for i := range b {
		b[i] = []byte{0, 1, 'a', 'A', 0xfe, 0xff}[r.Intn(6)]
	}
	return BytesValue(string(b))
}

func TestKeyEqualities(t *testing.T) {
	dec := func(s string) Value {
		d, _, err := apd.NewFromString(s)
		if err != nil {
			t.Fatal(err)
		}
		return DecimalValue(d)
	}
	for _, c := range []struct{ a, b Value }{
		{StringValue("a"), StringValue("A  ")},
		{StringValue("straße"), StringValue("STRASSE")}, // as strings.ToUpper folds: equal only if KeyString says so
		{dec("1.50"), dec("1.5")},
		{dec("-0.00"), dec("0")},
		{dec("100"), dec("1E+2")},
		{FloatValue(math.Copysign(0, -1)), FloatValue(0)},
		{IntValue(5), UintValue(5)},
		{YearValue(2020), IntValue(2020)},
		{EnumValue("A", 2), EnumValue("a", 2)},
	} {
		ks := string(KeyString(nil, c.a)) == string(KeyString(nil, c.b))
		if eq := bytes.Equal(AppendKey(nil, c.a), AppendKey(nil, c.b)); eq != ks {
			t.Errorf("%#v vs %#v: keys equal %v, KeyString %v", c.a, c.b, eq, ks)
		}
	}
}

func TestKeyDecimalOrder(t *testing.T) {
	texts := []string{"-1E+300", "-123456789012345678901234567890.5", "-1000", "-999.99", "-1.01", "-1",
		"-0.99", "-0.1", "-0.0999", "-1E-300", "0", "1E-300", "0.0001", "0.001", "0.00101", "0.1", "0.5",
		"0.51", "1", "1.000000000000000000000000000001", "1.01", "9.9", "10", "99", "100", "1E+118",
		"1E+119", "1.5E+119", "1E+300"}
	var prev []byte
	for i, s := range texts {
		d, _, err := apd.NewFromString(s)
		if err != nil {
			t.Fatal(err)
		}
		v := DecimalValue(d)
		k := AppendKey(nil, v)
		if i > 0 && bytes.Compare(prev, k) >= 0 {
			t.Errorf("%s (%x) does not sort after %s (%x)", s, k, texts[i-1], prev)
		}
		checkDecode(t, "decimal", v, k)
		prev = k
	}
	for _, d := range []*apd.Decimal{nil, {Form: apd.NaN}, {Form: apd.Infinite, Negative: true}, {Form: apd.Infinite}} {
		k := AppendKey(nil, Value{K: KindDecimal, D: d})
		if n, err := SkipKey(k); err != nil || n != len(k) {
			t.Errorf("decimal %v: SkipKey(%x) = %d, %v", d, k, n, err)
		}
	}
}

func TestKeyNullFirst(t *testing.T) {
	null := AppendKey(nil, Null)
	for _, v := range []Value{IntValue(math.MinInt64), FloatValue(math.Inf(-1)), FloatValue(math.NaN()),
		StringValue(""), BytesValue(""), DecimalValue(apd.New(-1, 300)), {K: KindTime, I: math.MinInt64},
		{K: KindDuration, I: math.MinInt64}, EnumValue("", 0)} {
		if k := AppendKey(nil, v); bytes.Compare(null, k) >= 0 {
			t.Errorf("NULL (%x) does not sort before %#v (%x)", null, v, k)
		}
	}
}

func TestKeyBadInput(t *testing.T) {
	good := [][]byte{
		AppendKey(nil, IntValue(7)), AppendKey(nil, StringValue("a\x00b")),
		AppendKey(nil, DecimalValue(apd.New(-12345, -2))), AppendKey(nil, DecimalValue(apd.New(1, 200))),
	}
	for _, k := range good {
		for n := 0; n < len(k); n++ {
			if _, err := SkipKey(k[:n]); !errors.Is(err, ErrBadKey) {
				t.Errorf("SkipKey(%x), cut from %x: %v", k[:n], k, err)
			}
			if _, _, err := DecodeKey(k[:n]); err == nil {
				t.Errorf("DecodeKey(%x), cut from %x: no error", k[:n], k)
			}
		}
	}
	for _, k := range [][]byte{{0}, {0xff}, {keyString, 'a', 0, 2}, {keyDecPos, 0x80, 101, 0},
		{keyDecPos, 0x80, 0}, {keyDecPos, 0x02, 5, 0}, {keyIntNeg, 0, 0, 0, 0, 0, 0, 0, 1}} {
		if _, _, err := DecodeKey(k); !errors.Is(err, ErrBadKey) {
			t.Errorf("DecodeKey(%x): %v, want ErrBadKey", k, err)
		}
	}
	if _, _, err := DecodeKey(AppendKey(nil, Value{K: 200})); !errors.Is(err, ErrKeyNotInvertible) {
		t.Errorf("unknown kind: %v", err)
	}
}

// FuzzDecodeKey: no byte string makes SkipKey or DecodeKey panic, and
// what decodes encodes back to a key that decodes to the same key.
func FuzzDecodeKey(f *testing.F) {
	f.Add(AppendKey(nil, DecimalValue(apd.New(-5, 130))))
	f.Add(AppendKey(nil, BytesValue("a\x00")))
	f.Add([]byte{keyDecNeg, 0xfe, 0, 0, 0, 0, 0, 0, 0, 0, 0xfe, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		n, err := SkipKey(b)
		if err == nil && (n <= 0 || n > len(b)) {
			t.Fatalf("SkipKey(%x) = %d", b, n)
		}
		v, _, err := DecodeKey(b)
		if err != nil {
			return
		}
		k := AppendKey(nil, v)
		v2, _, err := DecodeKey(k)
		if err != nil || !bytes.Equal(AppendKey(nil, v2), k) {
			t.Fatalf("DecodeKey(%x) = %#v; its key %x decodes to %#v, %v", b, v, k, v2, err)
		}
	})
}

func TestAppendKeyAllocs(t *testing.T) {
	dst := make([]byte, 0, 256)
	for _, v := range []Value{IntValue(-42), UintValue(1 << 63), StringValue("Hello, world  "),
		StringValue("a\x00b"), BytesValue("raw\x00bytes"), YearValue(2020), EnumValue("A", 2)} {
		if n := testing.AllocsPerRun(100, func() { AppendKey(dst[:0], v) }); n != 0 {
			t.Errorf("AppendKey(%#v) allocates %.0f times", v, n)
		}
	}
}

func BenchmarkAppendKey(b *testing.B) {
	dec, _, _ := apd.NewFromString("12345.67")
	for _, c := range []struct {
		name string
		v    Value
	}{
		{"int", IntValue(123456789)},
		{"ascii", StringValue("customer-000123")},
		{"decimal", DecimalValue(dec)},
		{"utf8", StringValue("Ünïcödé name")},
	} {
		b.Run(c.name+"/AppendKey", func(b *testing.B) {
			dst := make([]byte, 0, 64)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				dst = AppendKey(dst[:0], c.v)
			}
		})
		b.Run(c.name+"/KeyString", func(b *testing.B) {
			dst := make([]byte, 0, 64)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				dst = KeyString(dst[:0], c.v)
			}
		})
	}
}
