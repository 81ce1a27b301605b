package sql

import (
	"strconv"
	"strings"

	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sqlerr"
)

// enterProc counts a CALL of db.name in this session and refuses one that
// would recurse deeper than max_sp_recursion_depth (1456, as MariaDB; the
// default 0 allows no recursion). Without the bound a procedure that calls
// itself would grow the goroutine's stack until the process dies.
func (s *Session) enterProc(db, name string) (leave func(), err error) {
	key := strings.ToLower(db) + "." + strings.ToLower(name)
	limit, _ := strconv.Atoi(s.getVar(sysvar.Defs["max_sp_recursion_depth"], false))
	if s.activeProcs == nil {
		s.activeProcs = map[string]int{}
	}
	if s.activeProcs[key] > limit {
		return nil, sqlerr.New(sqlerr.ErSPRecursionLimit, "Recursive limit %d (as set by the max_sp_recursion_depth variable) was exceeded for routine %s", limit, name)
	}
	s.activeProcs[key]++
	return func() {
		if s.activeProcs[key]--; s.activeProcs[key] == 0 {
			delete(s.activeProcs, key)
		}
	}, nil
}
