package sql

import (
	"strconv"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// sqlSelectLimit is the session's sql_select_limit when it applies to the
// statement: a top-level SELECT (or UNION ...) with no LIMIT of its own,
// as MariaDB (not in routines, nor a subquery or INSERT ... SELECT). ok
// is false at the default (no limit).
func (s *Session) sqlSelectLimit() (uint64, bool) {
	if s.callDepth > 0 {
		return 0, false
	}
	text, own := s.vars["sql_select_limit"]
	if !own {
		text = s.database.Globals.Get("sql_select_limit")
	}
	n, err := strconv.ParseUint(text, 10, 64)
	if err != nil || n >= 1<<63-1 {
		return 0, false
	}
	return n, true
}

// withSelectLimit is n with sql_select_limit as its LIMIT when it has none;
// a shallow copy, so the cached plan's tree is never changed.
func (s *Session) withSelectLimit(n *ast.SelectStmt) *ast.SelectStmt {
	limit, ok := s.sqlSelectLimit()
	s.SelectLimit = 0
	if !ok || n.Limit != nil {
		return n
	}
	c := *n
	c.Limit = &ast.Limit{Count: ast.NewValueExpr(limit, "", "")}
	s.SelectLimit = limit + 1
	return &c
}

// withSetOprLimit is withSelectLimit for UNION, INTERSECT and EXCEPT: the
// limit is on the whole result.
func (s *Session) withSetOprLimit(n *ast.SetOprStmt) *ast.SetOprStmt {
	limit, ok := s.sqlSelectLimit()
	s.SelectLimit = 0
	if !ok || n.Limit != nil {
		return n
	}
	c := *n
	c.Limit = &ast.Limit{Count: ast.NewValueExpr(limit, "", "")}
	s.SelectLimit = limit + 1
	return &c
}

// clearSelectLimit ends withSelectLimit's plan key with its statement.
func (s *Session) clearSelectLimit() { s.SelectLimit = 0 }
