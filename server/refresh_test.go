package server

import (
	"testing"

	"github.com/go-mysql-org/go-mysql/mysql"
)

// TestComRefresh: COM_REFRESH runs the FLUSH of each option bit: logs,
// privileges, tables and hosts are OK; status (not reset here) and the
// bits plrun has no FLUSH for are refused with 1235; under LOCK TABLES
// READ the tables bit is 1099, as FLUSH TABLES is.
func TestComRefresh(t *testing.T) {
	ts := startServer(t, Config{}, nil)
	rc := dialRaw(t, ts.addr)
	rc.login("root", "root", "test")
	for _, c := range []struct {
		bits byte
		want uint16
	}{
		{0x01 | 0x02 | 0x04 | 0x08, 0},
		{0x10, 1235},
		{0x20, 1235},
	} {
		reply := rc.command([]byte{mysql.COM_REFRESH, c.bits})
		if got := errCode(reply[0]); got != c.want || c.want == 0 && reply[0][0] != mysql.OK_HEADER {
			t.Errorf("COM_REFRESH 0x%02x: reply %x, want error %d", c.bits, reply[0], c.want)
		}
	}
	rc.query("CREATE TABLE r (a INT)")
	rc.query("LOCK TABLES r READ")
	if got := errCode(rc.command([]byte{mysql.COM_REFRESH, 0x04})[0]); got != 1099 {
		t.Errorf("COM_REFRESH tables under LOCK TABLES READ: error %d, want 1099", got)
	}
}
