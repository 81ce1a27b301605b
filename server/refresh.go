package server

import (
	"github.com/plrun/plrun/sqlerr"
)

// refreshKinds are COM_REFRESH's option bits and the FLUSH each is.
var refreshKinds = []struct {
	bit  byte
	stmt string
}{
	{0x01, "FLUSH PRIVILEGES"}, // REFRESH_GRANT
	{0x02, "FLUSH LOGS"},       // REFRESH_LOG
	{0x04, "FLUSH TABLES"},     // REFRESH_TABLES
	{0x08, "FLUSH HOSTS"},      // REFRESH_HOSTS
	{0x10, "FLUSH STATUS"},     // REFRESH_STATUS
}

// refresh is COM_REFRESH (mysql_refresh: mysqldump --flush-logs,
// mysqladmin flush-logs / refresh): each option bit runs as its FLUSH
// statement would, in order; the first refusal is the reply. Bits plrun
// has no FLUSH for (threads, slave, master) are refused.
func (c *conn) refresh(data []byte) error {
	if len(data) < 1 {
		return errMalformed
	}
	bits := data[0]
	for _, k := range refreshKinds {
		if bits&k.bit == 0 {
			continue
		}
		bits &^= k.bit
		if _, err := c.session.Exec(c.ctx, k.stmt, nil); err != nil {
			return err
		}
	}
	if bits != 0 {
		return sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support 'COM_REFRESH options 0x%02x (threads, slave, master)'", bits)
	}
	return nil
}
