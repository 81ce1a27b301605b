package sql

import (
	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/storage"
)

// showOf is a session as SHOW reads it (showSource).
type showOf struct{ s *Session }

func (o showOf) Catalog() *storage.Catalog { return o.s.database.Txns.Catalog() }
func (o showOf) Procs() *procs.Catalog     { return o.s.database.Procs }

// Triggers is SHOW TRIGGERS for show.Exec (its WHERE form).
func (o showOf) Triggers(db, like string) (*exec.Result, error) {
	return o.s.routines().ShowTriggers(db, like)
}
func (o showOf) SysVar(d *sysvar.Def, global bool) string { return o.s.getVar(d, global) }
func (o showOf) Status() [][2]string                      { return o.s.withSessionStatus(o.s.database.Engine.Status()) }
func (o showOf) Processlist() []SessionInfo {
	return o.s.visibleProcesses(o.s.database.Engine.Processlist())
}
func (o showOf) Warnings() []exec.Note { return o.s.notes }
