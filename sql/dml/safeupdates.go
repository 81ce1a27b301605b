package dml

import (
	"github.com/plrun/plrun/sql/plan"
	"github.com/plrun/plrun/sqlerr"
)

// refuseUnsafeWrite is sql_safe_updates: with it ON, an UPDATE or DELETE
// with no LIMIT must find its rows through a key (a primary-key lookup,
// IN list or range, or an index lookup or range), else error 1175 before any row is
// touched, as MariaDB.
func (s *Session) refuseUnsafeWrite(acc *plan.Access, hasLimit bool) error {
	if hasLimit || s.SysVarText("sql_safe_updates") != "ON" {
		return nil
	}
	if acc.PK != nil || acc.InList != nil || acc.Uniq != nil || acc.Lo != nil || acc.Hi != nil || acc.IdxScan >= 0 {
		return nil
	}
	return sqlerr.New(sqlerr.ErUpdateWithoutKeyInSafeMode, "You are using safe update mode and you tried to update a table without a WHERE that uses a KEY column")
}
