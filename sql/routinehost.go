package sql

import (
	"context"

	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/routines"
	"github.com/plrun/plrun/sql/sysvar"
)

// routines is routine DDL (sql/routines) for a statement of the session.
func (s *Session) routines() routines.DDL {
	db := s.database
	return routines.New(routineHost{s}, routines.Catalogs{Txns: db.Txns, Procs: db.Procs, Runtimes: db.Runtimes, SchemaChanged: db.SchemaChanged})
}

// CreateProcedure compiles def (syntax is checked here), logs it and adds
// it to the catalog (the engine's startup procedures, LOAD PROCEDURE).
func (s *Session) CreateProcedure(ctx context.Context, def *procs.Definition, orReplace bool) error {
	return s.routines().CreateProcedure(ctx, def, orReplace)
}

// routineHost is the session as routine DDL sees it.
type routineHost struct{ s *Session }

func (h routineHost) Statement() *exec.State                         { return &h.s.State }
func (h routineHost) SysVar(name string) string                      { return h.s.getVar(sysvar.Defs[name], false) }
func (h routineHost) CommitOpen(ctx context.Context) (uint64, error) { return h.s.finishOpen(ctx) }
func (h routineHost) CheckWritable() error                           { return h.s.checkWritable() }
func (h routineHost) Definer() string                                { return h.s.definerOf() }

// CheckFunction compiles a new function's body as its first call will:
// a script body through its runtime, a SQL one as the expression (or
// compound statement) it is.
func (h routineHost) CheckFunction(db string, d *procs.Definition) error {
	if _, err := h.s.compileFunction(db, d, nil, false); err != nil {
		return err
	}
	if d.Language == procs.LanguageSQL && !routines.IsCompoundBody(d.Body) { // a BEGIN body compiled above
		mode, _ := sysvar.ParseSQLMode(d.Func.SQLMode)
		if _, err := routines.ParseSQLFunctionBody(d, mode); err != nil {
			return err
		}
	}
	return nil
}
