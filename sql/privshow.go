package sql

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sql/privilege"
	"github.com/plrun/plrun/types"
)

// visibleRows keeps the rows of a listing SHOW the account may see, as
// MySQL lists them: SHOW DATABASES the databases it holds anything in,
// SHOW TABLES and TABLE STATUS the tables it holds anything on, SHOW
// PROCEDURE / FUNCTION STATUS the routines of databases it holds a
// routine privilege in, SHOW TRIGGERS the triggers of tables it holds
// TRIGGER on. An unchecked session sees all.
func (s *Session) visibleRows(p *parse.Stmt, r *exec.Result) *exec.Result {
	if s.grants == nil || r == nil {
		return r
	}
	var keep func(row []types.Value) bool
	col := func(row []types.Value, i int) string {
		if i < len(row) {
			return row[i].String()
		}
		return ""
	}
	switch p.Kind {
	case parse.KindShowProcStatus, parse.KindShowFuncStatus:
		keep = func(row []types.Value) bool { return s.seesRoutine(col(row, 0), col(row, 1)) }
	case parse.KindShowTriggers:
		db := p.Name
		if db == "" {
			db = s.DB
		}
		keep = func(row []types.Value) bool { return s.allowed(privilege.Trigger, db, col(row, 2)) }
	case parse.KindAST:
		sh, ok := p.Node.(*ast.ShowStmt)
		if !ok {
			return r
		}
		db := sh.DBName
		if db == "" {
			db = s.DB
		}
		switch sh.Tp {
		case ast.ShowDatabases:
			keep = func(row []types.Value) bool { return s.seesDB(col(row, 0)) }
		case ast.ShowTables, ast.ShowTableStatus:
			keep = func(row []types.Value) bool { return s.seesTable(db, col(row, 0)) }
		case ast.ShowProcedureStatus, ast.ShowFunctionStatus:
			keep = func(row []types.Value) bool { return s.seesRoutine(col(row, 0), col(row, 1)) }
		case ast.ShowTriggers:
			keep = func(row []types.Value) bool { return s.allowed(privilege.Trigger, db, col(row, 2)) }
		}
	}
	if keep == nil {
		return r
	}
	kept := r.Rows[:0]
	for _, row := range r.Rows {
		if keep(row) {
			kept = append(kept, row)
		}
	}
	r.Rows = kept
	return r
}
