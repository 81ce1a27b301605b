package sql

import (
	"net"
	"strconv"
	"strings"

	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sql/access"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sql/privilege"
	"github.com/plrun/plrun/sqlerr"
)

// checkAccess refuses a statement the session's account may not run
// (sql/access), before it runs: at every Exec, so a prepared statement is
// checked at each EXECUTE against the grants of that moment, and for
// each statement a procedure, function or trigger body runs, against the
// rights it runs with (runAs). Each denial is logged at WARN without the
// statement's text (its literals are the user's data).
func (s *Session) checkAccess(p *parse.Stmt) error {
	g := s.grants
	if g == nil {
		return nil
	}
	d, denied := access.Check(g, access.Needs(p), accessEnv{s})
	if !denied {
		return nil
	}
	return s.denied(g, d, access.KindOf(p))
}

// denied words and logs a refusal.
func (s *Session) denied(g privilege.Grants, d access.Denial, kind string) error {
	err := d.Err(g, s.accessClient())
	code := uint16(0)
	if se, ok := sqlerr.As(err); ok {
		code = se.Code
	}
	user, host := s.Client()
	s.database.Engine.Logger().Warn("access denied", "user", g.User(), "host", g.Host(),
		"login", user, "client", host, "connection", s.id, "statement", kind, "object", d.Object(),
		"missing", d.Missing.String(), "code", code)
	return err
}

// accessClient is who 1142 and 1143 name: the login user and the
// client's host without its port, as MariaDB's errors do.
func (s *Session) accessClient() access.Client {
	if s.asDefiner && s.grants != nil {
		// inside DEFINER code the definer is who is refused, by account
		return access.Client{User: s.grants.User(), Host: s.grants.Host()}
	}
	user, host := s.Client()
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	return access.Client{User: user, Host: host}
}

// accessEnv is the session as access.Check sees it.
type accessEnv struct{ s *Session }

func (e accessEnv) CurrentDB() string { return e.s.DB }

func (e accessEnv) IsTemporary(db, table string) bool { return e.s.TempTable(db, table) != nil }

func (e accessEnv) TriggerTable(db, name string) (string, bool) {
	tr, ok := e.s.database.Procs.GetTrigger(db, name)
	if !ok {
		return "", false
	}
	return tr.Def.Table, true
}

// allowed reports whether the session may use need on db.table; an
// unchecked session may do anything.
func (s *Session) allowed(need privilege.Priv, db, table string) bool {
	return s.grants == nil || s.grants.Allowed(need, db, table)
}

// runAs makes the session run with the rights of the account definer
// names (a routine's or trigger's DEFINER) until the returned restore is
// called. An unchecked session stays unchecked (the embedded engine and
// the REPL have every right), and so does code with no definer recorded:
// created by an unchecked session or loaded from files by the operator
// (--procs, LOAD PROCEDURE needs FILE), it runs with the operator's
// rights. A definer that names no account is MySQL's 1449.
func (s *Session) runAs(definer string) (restore func(), err error) {
	saved, savedAs := s.grants, s.asDefiner
	restore = func() { s.grants, s.asDefiner = saved, savedAs }
	if saved == nil {
		return restore, nil
	}
	if definer == "" {
		s.grants = nil
		return restore, nil
	}
	user, host, current := access.SplitAccount(definer)
	if current {
		return restore, nil
	}
	g, ok := s.database.definerGrants(user, host)
	if !ok {
		return nil, sqlerr.New(sqlerr.ErNoSuchUser, "The user specified as a definer ('%s'@'%s') does not exist", user, host)
	}
	s.grants, s.asDefiner = g, true
	return restore, nil
}

// definerOf is the account a routine or trigger created now records as
// its DEFINER when none is written: the session's, "" when unchecked.
func (s *Session) definerOf() string {
	if s.grants == nil {
		return ""
	}
	return "`" + s.grants.User() + "`@`" + s.grants.Host() + "`"
}

// sqlSecurityInvoker reports SQL SECURITY INVOKER among a routine's
// characteristics.
func sqlSecurityInvoker(characteristics string) bool {
	return strings.Contains(strings.ToUpper(characteristics), "SQL SECURITY INVOKER")
}

// CheckKill is checkKill for the protocol's COM_PROCESS_KILL.
func (s *Session) CheckKill(id uint64) error { return MapError(s.checkKill(id)) }

// checkKill refuses KILL of another account's session without SUPER
// (1095, as MariaDB); an unknown id is the KILL's own 1094.
func (s *Session) checkKill(id uint64) error {
	if s.grants == nil || s.grants.Allowed(privilege.Super, "", "") {
		return nil
	}
	user, _ := s.Client()
	for _, si := range s.database.Engine.Processlist() {
		if si.ID == id && si.User != user {
			s.database.Engine.Logger().Warn("access denied", "user", s.grants.User(), "host", s.grants.Host(),
				"connection", s.id, "statement", "kill", "object", "thread "+strconv.FormatUint(id, 10), "missing", "SUPER", "code", sqlerr.ErKillDenied)
			return sqlerr.New(sqlerr.ErKillDenied, "You are not owner of thread %d", id)
		}
	}
	return nil
}

// visibleProcesses keeps the PROCESSLIST rows the account may see: all
// with PROCESS, else its own login's, as MySQL.
func (s *Session) visibleProcesses(rows []SessionInfo) []SessionInfo {
	if s.grants == nil || s.grants.Allowed(privilege.Process, "", "") {
		return rows
	}
	user, _ := s.Client()
	kept := rows[:0]
	for _, r := range rows {
		if r.User == user {
			kept = append(kept, r)
		}
	}
	return kept
}

// seesDB reports whether the account may see database db (SHOW
// DATABASES, information_schema): any privilege in it.
func (s *Session) seesDB(db string) bool {
	return s.grants == nil || strings.EqualFold(db, "information_schema") || s.grants.Visible(db)
}

// seesTable reports whether the account may see db.table: any privilege
// on it (or a temporary table of its own).
func (s *Session) seesTable(db, table string) bool {
	return s.grants == nil || strings.EqualFold(db, "information_schema") || access.AnyOnTableAllowed(s.grants, db, table)
}

// seesRoutine reports whether the account may see routine db.name: it
// is the routine's definer, or holds a routine privilege on its database
// (as plrun grants them), as MariaDB's SHOW PROCEDURE STATUS lists them.
func (s *Session) seesRoutine(db, name string) bool {
	if s.grants == nil {
		return true
	}
	def, _, ok := s.database.Procs.Get(db, name)
	if !ok {
		def, _, ok = s.database.Procs.GetFunction(db, name)
	}
	if ok && def.Definer != "" {
		if user, host, _ := access.SplitAccount(def.Definer); user == s.grants.User() && host == s.grants.Host() {
			return true
		}
	}
	fn := ok && def.Func != nil
	return access.RoutineAllowed(s.grants, privilege.Execute, db, name, fn) || access.RoutineAllowed(s.grants, privilege.AlterRoutine, db, name, fn) ||
		s.grants.Allowed(privilege.CreateRoutine, db, "")
}

// runAsRoutine is runAs for routine db.name: its DEFINER's rights unless
// it is SQL SECURITY INVOKER. The definer must hold EXECUTE on it too
// (1370 naming the definer), as MariaDB checks.
func (s *Session) runAsRoutine(db string, def *procs.Definition) (func(), error) {
	security := def.Characteristics
	if def.Func != nil {
		security += " " + strings.Join(def.Func.Characteristics, " ")
	}
	if sqlSecurityInvoker(security) {
		return func() {}, nil
	}
	restore, err := s.runAs(def.Definer)
	if err != nil {
		return nil, err
	}
	if err := s.checkRoutineExecute(db, def.Name, def.Func != nil); err != nil {
		restore()
		return nil, err
	}
	return restore, nil
}

// runAsTrigger is runAs for a trigger: its definer must hold TRIGGER on
// the table (1142 naming the definer), as MariaDB checks at each firing.
func (s *Session) runAsTrigger(tr *procs.Trigger) (func(), error) {
	restore, err := s.runAs(tr.RunAs)
	if err != nil {
		return nil, err
	}
	if g := s.grants; g != nil && !g.Allowed(privilege.Trigger, tr.DB, tr.Def.Table) {
		err := s.denied(g, access.Denial{Need: access.Need{Priv: privilege.Trigger, Scope: access.OnTable, DB: tr.DB, Name: tr.Def.Table},
			DB: tr.DB, Missing: privilege.Trigger}, "trigger")
		restore()
		return nil, err
	}
	return restore, nil
}

// checkExecute refuses a stored function call without EXECUTE (1370);
// it is checked at each call, not at the plan's build, since plans are
// cached across sessions and grants change.
func (s *Session) checkExecute(db, name string) error {
	return s.checkRoutineExecute(db, name, true)
}

// checkRoutineExecute is EXECUTE on procedure (function false) or
// function db.name.
func (s *Session) checkRoutineExecute(db, name string, function bool) error {
	g := s.grants
	if g == nil || access.RoutineAllowed(g, privilege.Execute, db, name, function) {
		return nil
	}
	return s.denied(g, access.Denial{Need: access.Need{Priv: privilege.Execute, Scope: access.OnRoutine, DB: db, Name: name, Verb: "execute", Function: function},
		DB: db, Missing: privilege.Execute}, "function_call")
}

// checkFunctionReads checks a SQL function's RETURN expression's reads
// with the rights the function runs with, its unqualified tables in the
// function's database.
func (s *Session) checkFunctionReads(cf *compiledFunc) error {
	restore, err := s.runAsRoutine(cf.db, cf.def)
	if err != nil {
		return err
	}
	defer restore()
	if s.grants == nil {
		return nil
	}
	if d, denied := access.Check(s.grants, cf.reads, routineEnv{accessEnv{s}, cf.db}); denied {
		return s.denied(s.grants, d, "function_call")
	}
	return nil
}

// routineEnv is accessEnv in a routine's own database.
type routineEnv struct {
	accessEnv
	db string
}

func (e routineEnv) CurrentDB() string { return e.db }
