package expr

import (
	"strconv"

	"github.com/plrun/plrun/sql/sysvar"
)

// SysVarUint is the session's value of an integer system variable
// (max_recursive_iterations ...).
func (s *Env) SysVarUint(name string) uint64 {
	n, _ := strconv.ParseUint(s.owner.SysVar(sysvar.Defs[name], false), 10, 64)
	return n
}

// SysVarText is the session's value of a system variable as text.
func (s *Env) SysVarText(name string) string { return s.owner.SysVar(sysvar.Defs[name], false) }
