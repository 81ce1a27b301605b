package server

import (
	"testing"

	"github.com/go-mysql-org/go-mysql/mysql"
	"github.com/plrun/plrun/sql"
	"github.com/plrun/plrun/types"
)

// A TIME result in the binary protocol reads back, through the same
// decoder prepared-statement parameters use, as the text it was.
func TestBinaryTimeRoundTrip(t *testing.T) {
	for _, text := range []string{"00:00:00", "01:29:44", "-26:03:04", "838:59:59", "10:00:00.500000", "-00:00:01"} {
		b := appendBinaryValue(nil, types.ColType{Base: types.TTime}, mysql.MYSQL_TYPE_TIME, types.StringValue(text))
		got, n, err := decodeTime(b)
		if err != nil || n != len(b) || got != text {
			t.Errorf("%s: decoded %v (%d of %d bytes, %v)", text, got, n, len(b), err)
		}
	}
	if f := field(sql.Column{Name: "t", Type: types.ColType{Base: types.TTime}}); f.Type != mysql.MYSQL_TYPE_TIME {
		t.Errorf("TIME result sent as type %d", f.Type)
	}
}
