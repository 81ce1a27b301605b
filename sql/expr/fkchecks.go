package expr

import "github.com/plrun/plrun/sql/sysvar"

// ForeignKeyChecks is the session's foreign_key_checks: OFF skips the
// FOREIGN KEY checks and actions of writes, and lets DDL drop or create
// tables whatever keys reference them, as MySQL does (dumps set it).
func (s *Env) ForeignKeyChecks() bool {
	return s.owner.SysVar(sysvar.Defs["foreign_key_checks"], false) == "ON"
}
