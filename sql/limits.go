package sql

import (
	"strconv"

	"github.com/plrun/plrun/membudget"
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sqlerr"
)

// statementMemoryLimit is plrun_max_statement_memory for this session.
func (s *Session) statementMemoryLimit() int64 {
	n, _ := strconv.ParseInt(s.getVar(sysvar.Defs[membudget.Setting], false), 10, 64)
	return n
}

// checkStatementSize refuses a statement longer than max_allowed_packet
// with MySQL's 1153, whichever way it arrived (a client's packet, a
// procedure's runSql, the Go API).
func (s *Session) checkStatementSize(query string) error {
	if limit := s.MaxAllowedPacket(); limit > 0 && int64(len(query)) > limit {
		return sqlerr.New(sqlerr.ErNetPacketTooLarge, "Got a packet bigger than 'max_allowed_packet' bytes")
	}
	return nil
}
