package types

import "testing"

// TestCoerceLoose pins non-strict mode's adjustments (MariaDB 10.11's
// values, see testdata/sql/sqlmode.txt for the warnings in context).
func TestCoerceLoose(t *testing.T) {
	tiny := ColType{Base: TTinyInt}
	uint32T := ColType{Base: TInt, Unsigned: true}
	dec := ColType{Base: TDecimal, Length: 4, Scale: 2}
	vc := ColType{Base: TVarchar, Length: 3}
	dbl := ColType{Base: TDouble}
	for _, c := range []struct {
		v    Value
		t    ColType
		want string
		warn uint16
	}{
		{IntValue(300), tiny, "127", WarnOutOfRange},
		{IntValue(-300), tiny, "-128", WarnOutOfRange},
		{IntValue(-1), uint32T, "0", WarnOutOfRange},
		{StringValue("abc"), tiny, "0", WarnBadValue},
		{StringValue("12abc"), uint32T, "12", WarnTruncated},
		{StringValue(" -7.6e1x"), tiny, "-76", WarnTruncated},
		{StringValue("999x"), tiny, "127", WarnTruncated},
		{StringValue("x"), dec, "0.00", WarnBadValue},
		{StringValue("123.456"), dec, "99.99", WarnOutOfRange},
		{IntValue(-1000), dec, "-99.99", WarnOutOfRange},
		{StringValue("abcdef"), vc, "abc", WarnTruncated},
		{StringValue("ééééé"), vc, "ééé", WarnTruncated},
		{StringValue("1.5e3zz"), dbl, "1500", WarnTruncated},
		{StringValue("."), dbl, "0", WarnBadValue},
		{IntValue(5), tiny, "5", 0},
	} {
		got, warn, err := CoerceLoose(c.v, c.t)
		if err != nil || got.String() != c.want || warn != c.warn {
			t.Errorf("CoerceLoose(%v, %s) = %v, %d, %v; want %s, %d", c.v, c.t.SQL(), got, warn, err, c.want, c.warn)
		}
	}
	if _, _, err := CoerceLoose(StringValue("garbage"), ColType{Base: TDatetime}); err == nil {
		t.Error("a bad DATETIME was adjusted; plrun has no zero date to store")
	}
}
