package dml

import (
	"github.com/plrun/plrun/sqlerr"
)

// skipDuplicate is UPDATE IGNORE's answer to a row whose new values
// collide with another's key: the row is left as it was, without a
// warning, as in MariaDB 10.11 (MySQL warns 1062).
func (s *Session) skipDuplicate(err error) bool {
	e, ok := sqlerr.As(err)
	return ok && s.IgnoreErrors && e.Code == sqlerr.ErDupEntry
}
