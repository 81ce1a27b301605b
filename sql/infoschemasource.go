package sql

import (
	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sql/acl"
	"github.com/plrun/plrun/sql/infoschema"
	"github.com/plrun/plrun/sql/privilege"
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/storage"
)

// infoschemaOf is a session as information_schema reads it
// (infoschema.Source).
type infoschemaOf struct{ s *Session }

func (o infoschemaOf) Catalog() *storage.Catalog                { return o.s.database.Txns.Catalog() }
func (o infoschemaOf) Procs() *procs.Catalog                    { return o.s.database.Procs }
func (o infoschemaOf) SysVar(d *sysvar.Def, global bool) string { return o.s.getVar(d, global) }
func (o infoschemaOf) VarOrigin(key string) sysvar.Origin       { return o.s.database.Globals.OriginOf(key) }
func (o infoschemaOf) Status(global bool) [][2]string {
	return o.s.withSessionStatus(o.s.database.Engine.Status())
}
func (o infoschemaOf) Processlist() []infoschema.SessionInfo {
	return o.s.visibleProcesses(o.s.database.Engine.Processlist())
}

// SeesDB, SeesTable and SeesProcesses bound the rows information_schema
// lists to what the session's account may see (infoschema.Visibility).
func (o infoschemaOf) SeesDB(db string) bool           { return o.s.seesDB(db) }
func (o infoschemaOf) SeesTable(db, table string) bool { return o.s.seesTable(db, table) }
func (o infoschemaOf) SeesProcesses() bool             { return o.s.allowed(privilege.Process, "", "") }

func (o infoschemaOf) Locks() []infoschema.LockInfo {
	held := o.s.database.Txns.Locks.Locks()
	out := make([]infoschema.LockInfo, 0, len(held))
	for _, h := range held {
		l := infoschema.LockInfo{Key: string(h.Key), Holder: uint64(h.Holder)}
		for _, w := range h.Waiters {
			l.Waiters = append(l.Waiters, infoschema.WaiterInfo{TrxID: uint64(w.Txn), Since: w.Since})
		}
		out = append(out, l)
	}
	return out
}

func (o infoschemaOf) ViewColumns(v *storage.ViewDef) ([]storage.Column, bool, error) {
	return o.s.State.ViewColumns(v)
}

func (o infoschemaOf) ViewDefinition(v *storage.ViewDef) string {
	text, err := o.s.State.ViewDefinition(v)
	if err != nil {
		return v.Select
	}
	return text
}

// Warn adds a warning once: a statement may build the same
// information_schema table more than once (planning, then reading), and
// MariaDB warns once per view.
func (o infoschemaOf) Warn(code uint16, msg string) {
	for _, n := range o.s.State.StmtNotes {
		if n.Code == code && n.Message == msg {
			return
		}
	}
	o.s.State.Warn(code, "%s", msg)
}

// Accounts implements infoschema.Source: every account for an unchecked
// session or one holding CREATE USER globally (plrun has no mysql schema
// to grant SELECT on), else the session's own.
func (o infoschemaOf) Accounts() []*acl.Account {
	cat := o.s.database.Accounts
	if cat == nil {
		return nil
	}
	st := cat.Current()
	g := o.s.grants
	if g == nil || g.Allowed(privilege.CreateUser, "", "") {
		return st.Accounts()
	}
	if a := st.Lookup(g.User(), g.Host()); a != nil {
		return []*acl.Account{a}
	}
	return nil
}
